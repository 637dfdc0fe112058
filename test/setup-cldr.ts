// Every test process formats through CLDR as the server does: install the engine's pack loader.
import '../src/server/cldr-packs';

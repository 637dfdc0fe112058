export interface Landing {
  area?: string;
  rest?: string;
  top?: string;
}
export interface FileImports {
  area?: string;
  top?: string;
  file: string;
  imports: Array<{ spec: string; to: Landing | null }>;
}
export declare function importsOf(text: string): string[];
export declare function landing(serverDir: string, fromFile: string, spec: string): Landing | null;
export declare function isIndex(rest: string): boolean;
export declare function areaGraph(files: FileImports[]): {
  edges: Map<string, Map<string, string[]>>;
  reachIns: Array<{ file: string; spec: string; area: string }>;
  topImports: Map<string, { areas: Set<string>; tops: Set<string> }>;
};
export declare function cyclicGroups(edges: Map<string, Map<string, unknown>>): string[][];
export declare function cycleThrough(edges: Map<string, Map<string, unknown>>, group: string[]): string[];
export declare function checkAreas(
  root: string,
  allowed?: { order?: string[] | null; edges: string[] },
): { areas: string[]; edges: Map<string, Map<string, string[]>>; problems: string[] };

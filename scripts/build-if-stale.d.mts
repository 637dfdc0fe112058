export declare function buildIfStale(): void;

export declare const SERVER_OUT: string;
export declare const SERVER_MAIN: string;
export declare function newestSource(): number;
export declare function serverStale(): boolean;
export declare function buildServer(): Promise<number>;
export declare function ensureServerBuilt(): Promise<void>;

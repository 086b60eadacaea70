export function bundleIsFresh(stampPath?: string, bundlePath?: string, root?: string): boolean;
export function cliEntry(): Promise<URL | null>;

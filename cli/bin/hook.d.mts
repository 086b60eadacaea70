export function runHook(event: string): Promise<void>;

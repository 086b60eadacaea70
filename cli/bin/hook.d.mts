export function runHook(event: string, argPayload?: string): Promise<void>;

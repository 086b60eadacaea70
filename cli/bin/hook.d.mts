export function runHook(event: string, argPayload?: string): Promise<void>;
export function postHook(
  event: string,
  payload: unknown,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<string | null>;

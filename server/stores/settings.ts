// Persistence for the settings the person changes from the board or the CLI (Setting rows: a key
// and its JSON value): the only code that reads or writes them.
import type { Db } from "../db";

export class SettingStore {
  constructor(private readonly db: Db) {}

  /** The stored value of `key`, parsed (null: not set, or not JSON). */
  async get(key: string): Promise<unknown> {
    const row = await this.db.setting.findUnique({ where: { key } });
    if (!row) return null;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      return null;
    }
  }

  /** Stores `value` (as JSON) under `key`; null removes the setting. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === null) {
      await this.db.setting.deleteMany({ where: { key } });
      return;
    }
    const json = JSON.stringify(value);
    await this.db.setting.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
  }

  /**
   * Stores `value` under `key` unless a value is there already, and returns the one stored: of
   * two server processes sharing a database that race to set it, both get the first one's.
   */
  async setIfAbsent(key: string, value: unknown): Promise<unknown> {
    try {
      await this.db.setting.upsert({ where: { key }, create: { key, value: JSON.stringify(value) }, update: {} });
    } catch (e) {
      // The other process's insert won between our read and our insert: its value stands.
      if ((await this.get(key)) === null) throw e;
    }
    return this.get(key);
  }
}

import type { Script, ScriptSource, SimReply } from './reply-plan';

interface Entry {
  script: Script;
  remaining: number;
}

/**
 * Registered scripts, newest first. Matching is per request (a substring of that request's
 * latest turn), never a queue, so parallel tests with unique markers cannot take each other's
 * replies.
 */
export class ScriptBook implements ScriptSource {
  private entries: Entry[] = [];

  add(script: Script): void {
    this.entries.unshift({ script: structuredClone(script), remaining: script.times ?? Infinity });
  }

  take(text: string, model?: string): SimReply | undefined {
    const index = this.entries.findIndex((entry) => text.includes(entry.script.match) && (entry.script.model === undefined || entry.script.model === model));
    const entry = this.entries[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries.splice(index, 1);
    return structuredClone(entry.script.reply);
  }

  list(): Script[] {
    return this.entries.map((entry) => {
      const copy = structuredClone(entry.script);
      return Number.isFinite(entry.remaining) ? { ...copy, times: entry.remaining } : copy;
    });
  }

  clear(): void {
    this.entries = [];
  }
}

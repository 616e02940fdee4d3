import { useRef, useState } from 'preact/hooks';

/** A new key's secret, shown this once with a Copy button; it is not kept anywhere after "Done". */
export function SecretOnce({ name, secret, baseUrl, onDone }: { name: string; secret: string; baseUrl?: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  const code = useRef<HTMLElement>(null);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard access (plain http on another host): select it for Ctrl-C instead.
      const range = document.createRange();
      range.selectNodeContents(code.current!);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      setCopied('Selected: press Ctrl-C (⌘-C) to copy.');
    }
  };
  return (
    <section class="panel secret" aria-label="New key secret">
      <h2>Key “{name}” created</h2>
      <p>
        Copy the secret now: <strong>it is shown only this once</strong> and stored only as a hash.
      </p>
      <div class="secret-row">
        <code ref={code} data-testid="new-secret">
          {secret}
        </code>
        <button type="button" class="primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="hint" role="status">
        {copied ?? 'Use it as Authorization: Bearer <key> (or X-API-Key) with any of the four dialects.'}
      </p>
      {baseUrl && (
        <dl class="endpoints" aria-label="Where to send requests">
          <div>
            <dt>OpenAI SDKs (chat, Responses, embeddings): base URL</dt>
            <dd><code data-testid="base-url-openai">{`${baseUrl}/v1`}</code></dd>
          </div>
          <div>
            <dt>Anthropic and Gemini SDKs: base URL</dt>
            <dd><code>{baseUrl}</code></dd>
          </div>
        </dl>
      )}
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

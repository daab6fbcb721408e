/**
 * The text Python's `email` package makes (compat32 policy, `as_string()`, no header folding)
 * for Salt's `smtp.send_msg`: a `MIMEText` message, or with attachments a `multipart/mixed`
 * one holding the text and one `MIMEApplication` part per file.
 */
import { randomInt } from 'node:crypto';

/** Python's `base64.encodebytes`: lines of 76 characters, each ending in a newline. */
function encodeBytes(data: Buffer): string {
  const b64 = data.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

/** `MIMEText(text)`: us-ascii and 7bit when it can be, else utf-8 and base64. */
function textPart(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range test
  if (/^[\x00-\x7f]*$/.test(text))
    return `Content-Type: text/plain; charset="us-ascii"\nMIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\n\n${text}`;
  return `Content-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\n\n${encodeBytes(Buffer.from(text, 'utf8'))}`;
}

export interface Attachment {
  name: string;
  data: Buffer;
}

/** Python's `_make_boundary` shape: fifteen '=' , a 19-digit number, '=='. */
const boundary = (): string =>
  `${'='.repeat(15)}${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e9)).padStart(10, '0')}==`;

/** The whole message; `headers` (Subject, From, To) follow the MIME headers, as Python orders them. */
export function mimeMessage(
  text: string,
  headers: [string, string][],
  attachments: Attachment[] | null,
): string {
  const head = headers.map(([k, v]) => `${k}: ${v}\n`).join('');
  if (!attachments) {
    const part = textPart(text);
    const cut = part.indexOf('\n\n');
    return `${part.slice(0, cut + 1)}${head}${part.slice(cut + 1)}`;
  }
  const b = boundary();
  const parts = [
    textPart(text),
    ...attachments.map(
      (a) =>
        `Content-Type: application/octet-stream; Name="${a.name}"\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\n` +
        `Content-Disposition: attachment; filename="${a.name}"\n\n${encodeBytes(a.data)}`,
    ),
  ];
  return (
    `Content-Type: multipart/mixed; boundary="${b}"\nMIME-Version: 1.0\n${head}\n` +
    `--${b}\n${parts.join(`\n--${b}\n`)}\n--${b}--\n`
  );
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One `curl` command of a document's shell block, as printed, with the comment lines above it. */
export interface DocCurl {
  /** The comment lines (without `# `) since the previous command. */
  comment: string;
  method: string;
  /** As printed: `localhost:3000/partner/v1/events?delivered=false`. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The command line as printed (continuations joined). */
  line: string;
}

/** The fenced code block right under the heading `heading` (`## Quick tour`) of a Markdown file of docs/. */
export function docBlock(file: string, heading: string): string {
  const text = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', file), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/${file} has no heading ${heading}`);
  const block = /```\w*\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error(`docs/${file}: no code block under ${heading}`);
  return block[1];
}

/** Shell words of one line: quotes removed, nothing expanded; a `<placeholder>` is one word. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '<') {
      // A placeholder of the document's (`<event id>`), one word whatever it holds.
      const end = line.indexOf('>', i);
      word = (word ?? '') + line.slice(i, end + 1);
      i = end;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) out.push(word);
  return out;
}

/**
 * The `curl` commands of a shell block, in order, each with the comments above it. Continuation lines (`\`)
 * are joined; other lines (assignments such as `K=...`) are skipped. Only the flags the documents use are
 * read (`-s`, `-X`, `-H`, `-d`); any other flag fails, so a document that starts using one is noticed here.
 */
export function curlCommands(block: string): DocCurl[] {
  const lines = block.replace(/\\\n\s*/g, '').split('\n');
  const commands: DocCurl[] = [];
  let comment: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith('#')) {
      comment.push(line.replace(/^#\s?/, ''));
      continue;
    }
    if (!line.startsWith('curl ')) continue;
    const args = words(line).slice(1);
    const command: DocCurl = { comment: comment.join(' '), method: 'GET', url: '', headers: {}, line };
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (arg === '-s') continue;
      else if (arg === '-X') command.method = args[++i];
      else if (arg === '-H') {
        const [name, ...value] = args[++i].split(':');
        command.headers[name.trim().toLowerCase()] = value.join(':').trim();
      } else if (arg === '-d') command.body = args[++i];
      else if (!arg.startsWith('-') && !command.url) command.url = arg;
      else throw new Error(`a curl flag this reader does not know: ${arg} (in: ${line})`);
    }
    if (command.body !== undefined && command.method === 'GET') command.method = 'POST';
    commands.push(command);
    comment = [];
  }
  return commands;
}

/**
 * Reading the commands README.md shows: its fenced blocks, its inline code spans, and each line
 * taken apart as a POSIX shell would (comments, quotes, `&&`-lists), so a test can run exactly what
 * a reader would type. Pure functions, no I/O.
 */

export interface FencedBlock {
  /** The info string's first word ("sh", "text", …), "" when there is none. */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  lines: string[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^\s`]*)/;

/** The fenced code blocks, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { fence: string; block: FencedBlock } | undefined;
  markdown.split("\n").forEach((text, index) => {
    const fence = FENCE.exec(text);
    if (open) {
      const closing = fence && fence[1]!.startsWith(open.fence) && text.trim() === fence[1];
      if (closing) open = undefined;
      else open.block.lines.push(text);
    } else if (fence) {
      const block = { lang: fence[2] ?? "", line: index + 1, lines: [] };
      blocks.push(block);
      open = { fence: fence[1]!, block };
    }
  });
  if (open) throw new Error(`the fenced block opened on line ${open.block.line} is never closed`);
  return blocks;
}

/** The markdown with its fenced blocks left out (each line blanked, so line numbers stay). */
function prose(markdown: string): string {
  const lines = markdown.split("\n");
  for (const block of fencedBlocks(markdown)) {
    for (let i = block.line - 1; i <= block.line + block.lines.length; i += 1) lines[i] = "";
  }
  return lines.join("\n");
}

/**
 * The inline code spans of the prose, each with its line breaks read as spaces (a span may wrap,
 * as "`npm\nci`" does) and trimmed, in order.
 */
export function inlineCode(markdown: string): string[] {
  const spans: string[] = [];
  const pattern = /(`+)([\s\S]*?[^`])\1(?!`)/g;
  for (const match of prose(markdown).matchAll(pattern)) {
    spans.push(match[2]!.replace(/\s+/g, " ").trim());
  }
  return spans;
}

export type Token = { word: string } | { operator: "&&" | "||" | ";" | "|" | "&" };

/**
 * A command line as a POSIX shell splits it: words with their quotes removed ('…' literal, "…"
 * with \" \\ \$ \` escapes, \x outside quotes), `#` starting a word opening a comment to the end,
 * and the list operators between commands. Redirections are not read: the README's placeholders
 * (`<id>`) stay words. Throws on an unterminated quote.
 */
export function shellTokens(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const finish = () => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === " " || c === "\t") {
      finish();
      i += 1;
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let text = "";
      let j = i + 1;
      for (;;) {
        if (j >= line.length) throw new Error(`unterminated " in: ${line}`);
        const d = line[j]!;
        if (d === '"') break;
        if (d === "\\" && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) {
          text += line[j + 1];
          j += 2;
        } else {
          text += d;
          j += 1;
        }
      }
      word = (word ?? "") + text;
      i = j + 1;
    } else if (c === "\\") {
      word = (word ?? "") + (line[i + 1] ?? "");
      i += 2;
    } else if (c === "&" || c === "|" || c === ";") {
      finish();
      const two = line.slice(i, i + 2);
      const operator = two === "&&" || two === "||" ? two : (c as "&" | "|" | ";");
      tokens.push({ operator });
      i += operator.length;
    } else {
      word = (word ?? "") + c;
      i += 1;
    }
  }
  finish();
  return tokens;
}

/** The words of a line with no list operators in it (one command); throws when it has any. */
export function shellWords(line: string): string[] {
  const commands = shellCommands(line);
  if (commands.length > 1) throw new Error(`more than one command in: ${line}`);
  return commands[0] ?? [];
}

/** The simple commands of a line (split at &&, ||, ;, | and &), each as its words. */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  for (const token of shellTokens(line)) {
    if ("word" in token) commands.at(-1)!.push(token.word);
    else commands.push([]);
  }
  return commands.filter((words) => words.length > 0);
}

/** The comment a shell line ends with (after an unquoted `#` starting a word), "" when none. */
export function shellComment(line: string): string {
  // The tokenizer stops at the comment; what it left is everything from the `#` on.
  let quote: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"') i += 1;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "\\") {
      i += 1;
    } else if (c === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) {
      return line.slice(i + 1).trim();
    }
  }
  return "";
}

/** An `npm …` invocation: `run` with its script and arguments, or another npm command. */
export type NpmCommand =
  | { kind: "run"; script: string; args: string[]; text: string }
  | { kind: "command"; command: string; args: string[]; text: string };

/** npm's aliases of `run` (`npm help run`). */
const RUN_ALIASES = new Set(["run", "run-script", "rum", "urn"]);

/** Reads `words` (starting with "npm") as npm would; undefined when it is not an npm command. */
export function npmCommand(words: readonly string[]): NpmCommand | undefined {
  if (words[0] !== "npm") return undefined;
  const text = words.join(" ");
  // npm's own options before the command (`npm -s run …`) are not the command.
  let i = 1;
  while (i < words.length && words[i]!.startsWith("-")) i += 1;
  const command = words[i];
  if (command === undefined) return { kind: "command", command: "", args: [], text };
  if (!RUN_ALIASES.has(command)) return { kind: "command", command, args: words.slice(i + 1), text };
  let j = i + 1;
  while (j < words.length && words[j]!.startsWith("-") && words[j] !== "--") j += 1;
  const script = words[j] ?? "";
  const rest = words.slice(j + 1);
  return { kind: "run", script, args: rest[0] === "--" ? rest.slice(1) : rest, text };
}

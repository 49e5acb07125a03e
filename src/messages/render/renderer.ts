import { templateEngine } from "./engines.js";
import type { RenderedMessage, RenderInput } from "./model.js";
import { templateData } from "./template-data.js";
import { templateFiles } from "./template-files.js";

/**
 * Renders a customer message from three templates: <language>/<kind>.subject, .text and .html
 * (src/messages/templates, or the merchant's `templatesDir` file by file). The subject is made one
 * line (it becomes a mail header); plain text loses the blank lines that skipped conditional parts
 * leave behind; the HTML gets the subject for its <title>. Pure apart from reading template files.
 */

export interface MessageRenderer {
  render(input: RenderInput): Promise<RenderedMessage>;
}

export function createMessageRenderer(options: { templatesDir?: string } = {}): MessageRenderer {
  const files = templateFiles(options.templatesDir);
  const html = templateEngine(files, "html");
  const text = templateEngine(files, "text");
  return {
    async render(input) {
      const data = templateData(input);
      const name = `${input.language}/${input.model.kind}`;
      const subject = text.render(`${name}.subject`, data).replace(/\s+/g, " ").trim();
      return {
        subject,
        text: tidyText(text.render(`${name}.text`, data)),
        html: html.render(`${name}.html`, { ...data, subject }),
        language: input.language,
      };
    },
  };
}

function tidyText(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => line.trimEnd());
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;
}

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The fonts a PDF embeds, from npm packages (never the machine's font folders, so a document looks
 * the same wherever it is made): IBM Plex Sans for Latin text and IBM Plex Sans Arabic, drawn to
 * match it. The Arabic one draws each letter form as one whole glyph, so a PDF reader copying the
 * text gets the letters back (fonts that build letters from a dotless base and separate dots, such
 * as Noto Sans Arabic, copy out as the wrong letters). Resolved through Node's module resolution,
 * so the paths hold from src/ under tsx and from dist/ alike. Read once per process.
 */

export type FontName = "latin" | "latinBold" | "arabic" | "arabicBold";

const PATHS: Record<FontName, string> = {
  latin: "@expo-google-fonts/ibm-plex-sans/400Regular/IBMPlexSans_400Regular.ttf",
  latinBold: "@expo-google-fonts/ibm-plex-sans/600SemiBold/IBMPlexSans_600SemiBold.ttf",
  arabic: "@expo-google-fonts/ibm-plex-sans-arabic/400Regular/IBMPlexSansArabic_400Regular.ttf",
  arabicBold: "@expo-google-fonts/ibm-plex-sans-arabic/600SemiBold/IBMPlexSansArabic_600SemiBold.ttf",
};

let loaded: Record<FontName, Buffer> | undefined;

export function fontFiles(): Record<FontName, Buffer> {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const read = (name: FontName) => readFileSync(require.resolve(PATHS[name]));
    loaded = {
      latin: read("latin"),
      latinBold: read("latinBold"),
      arabic: read("arabic"),
      arabicBold: read("arabicBold"),
    };
  }
  return loaded;
}

/**
 * Which language data reads a page. Tesseract reads with the model it is given; the English model
 * reads a German page with "fiir" for "für" and "StraBe" for "Straße", and an Arabic page as noise
 * (a mean word confidence of 0.25 where the Arabic model reads 0.88). The engine reads with English
 * first, then asks two questions of that reading, and reads again only when one says another model
 * would do better:
 *
 * - the page's script, from tesseract's script detection (the `osd` data), asked only of a poor
 *   reading (over all its words, or over its words of letters: a table's figures read well in any
 *   script): a page in Arabic, Hebrew, Cyrillic, Greek or Han script is read with that script's
 *   language when it is installed;
 * - for a page in Latin script, the language its words are in: the short function words of each
 *   language ("und", "der", "pour", "avec", "para", "della") counted in the English reading, which
 *   reads them right because they hold no letter the English model lacks. The page is read again
 *   with that language's model and English's together, each word by the surer of the two.
 *
 * The reading with the higher mean word confidence is kept (index.ts). An English page, and one
 * whose language is unclear (a receipt of ten words, a page mixing two languages), is read once.
 */

/** POOR_FOR_SCRIPT: a mean word confidence below which the page may be in another script (an English page reads 0.6 to 0.95). */
export const POOR_FOR_SCRIPT = 0.5;

/**
 * POOR_LETTERS: a mean confidence of the words of letters below which the page may be in another
 * script though its figures read well: a Hebrew table's English reading is 0.56 over all its words
 * but 0.28 over its words of two letters or more (the Arabic gazette 0.24); English, German and French
 * pages read theirs at 0.72-0.94, and the 100 SROIE receipts, unprepared, at 0.43 and over.
 */
const POOR_LETTERS = 0.4;
/** MIN_LETTERED: words of letters a reading must hold before their confidence says anything of its script */
const MIN_LETTERED = 20;

/** poorInLetters: whether the words of two letters or more of a reading read poorly, as a script the model does not know reads (its figures may read well). */
export function poorInLetters(words: ReadonlyArray<{ text: string; confidence: number }>): boolean {
  let count = 0;
  let sum = 0;
  for (const word of words) {
    if (!/\p{L}.*\p{L}/u.test(word.text)) continue;
    count++;
    sum += word.confidence;
  }
  return count >= MIN_LETTERED && sum / count < POOR_LETTERS;
}

/** MANY_FIGURES: the share of a reading's words that are figures from which its page is one of figures (a table: the Hebrew table's 0.65; the Arabic gazette's prose 0.12) */
const MANY_FIGURES = 0.3;

/** FIGURE_WORD: a word that is a figure ("2.6", "-17.0", "31.12.14", "(1)") */
const FIGURE_WORD = /^[(\-–+]?\d[\d.,:/\-]*[)%]?$/u;

/** manyFigures: whether a reading's words are figures as much as a table's are (MANY_FIGURES) */
export function manyFigures(words: ReadonlyArray<{ text: string }>): boolean {
  return words.length > 0 && words.filter((word) => FIGURE_WORD.test(word.text)).length >= MANY_FIGURES * words.length;
}

/** SURE_SCRIPT: tesseract's script confidence from which its script is taken (the Arabic gazette at 150 dpi: 96, the generated Arabic page of test/ocr-language.test.ts: 63). */
export const SURE_SCRIPT = 2;

/** SCRIPT_LANGUAGES: the language data that reads each script tesseract's detection names (Debian package tesseract-ocr-<code>). */
const SCRIPT_LANGUAGES: Record<string, string> = {
  Arabic: "ara",
  Hebrew: "heb",
  Cyrillic: "rus",
  Greek: "ell",
  Han: "chi_sim",
  Japanese: "jpn",
  Korean: "kor",
  Thai: "tha",
  Devanagari: "hin",
};

/**
 * READS_AS_SCRIPT: the mean word confidence from which a script's model, tried on a page whose script
 * is unclear, has read a page in that script: such pages read 0.81-0.93 (the Hebrew table 0.81 as
 * rendered, the Arabic gazette's pages 0.85-0.88, clean generated pages 0.92-0.93); blurred photos
 * of Latin receipts read as noise in Arabic or Hebrew at 0.40-0.52.
 */
export const READS_AS_SCRIPT = 0.7;

/** SCRIPT_MODELS: the language data of the scripts other than Latin, each tried when a page's script is unclear */
export const SCRIPT_MODELS: readonly string[] = Object.values(SCRIPT_LANGUAGES);

/** languageOfScript is the language code that reads a detected script, or null for Latin and scripts without one. */
export function languageOfScript(script: string): string | null {
  return SCRIPT_LANGUAGES[script] ?? null;
}

/**
 * FUNCTION_WORDS: short words that carry a language's grammar, written without letters the English
 * model cannot read (so "für", "à", "è" are not among them), and of two letters or more (OCR reads
 * specks as "a", "o", "e"). Words shared by two languages ("de", "la", "die") count for each; what
 * decides is the margin over the others.
 */
const FUNCTION_WORDS: Record<string, string[]> = {
  eng: ["the", "and", "of", "to", "in", "is", "for", "with", "on", "that", "this", "are", "by", "be", "at", "from", "or", "your", "you", "it", "as", "we", "our", "an", "was", "will", "not", "have", "has"],
  deu: ["der", "die", "das", "und", "ist", "nicht", "mit", "von", "zu", "den", "dem", "des", "auf", "bei", "ein", "eine", "einer", "sich", "auch", "wird", "werden", "sie", "wir", "ihr", "ihre", "oder", "nach", "aus", "zum", "zur", "im", "vom", "bis", "durch", "wie", "als", "noch", "nur", "dass", "unter", "sowie", "bitte", "wurde"],
  fra: ["le", "la", "les", "des", "du", "et", "est", "pour", "avec", "sur", "une", "un", "au", "aux", "dans", "par", "que", "qui", "ne", "pas", "ce", "cette", "ces", "sont", "vous", "nous", "votre", "vos", "leur", "ou", "en", "de"],
  spa: ["el", "la", "los", "las", "de", "del", "que", "en", "por", "para", "con", "una", "un", "es", "se", "su", "sus", "al", "lo", "como", "pero", "esta", "este", "usted"],
  ita: ["il", "lo", "la", "gli", "le", "di", "del", "della", "dei", "delle", "che", "per", "con", "una", "un", "non", "sono", "da", "al", "alla", "nel", "nella", "questo", "questa"],
  nld: ["de", "het", "een", "en", "van", "voor", "met", "op", "te", "is", "niet", "zijn", "dat", "die", "aan", "bij", "door", "om", "ook", "uw", "naar", "wordt", "worden"],
  por: ["os", "as", "de", "do", "da", "dos", "das", "que", "em", "para", "com", "uma", "um", "por", "no", "na", "ao", "se", "pelo", "pela"],
};

const WORD_SETS = Object.fromEntries(Object.entries(FUNCTION_WORDS).map(([lang, words]) => [lang, new Set(words)]));

/** MIN_HITS: function words a reading must hold in its language before the language is named (a receipt's 20 words hold 2 or 3). */
const MIN_HITS = 8;
/** MIN_DISTINCT: different function words among them (a name printed eight times is no language) */
const MIN_DISTINCT = 4;
/** MARGIN: how many times the next language's count the winner's must be */
const MARGIN = 1.5;
/** WORDS_READ: the words counted at most (a long page's language shows in its first thousands) */
const WORDS_READ = 5000;

/**
 * latinLanguageOf names the language of a reading in Latin script by its function words: a
 * tesseract code other than "eng", or null when the reading is English, too short, or unclear.
 */
export function latinLanguageOf(text: string): string | null {
  const counts: Record<string, { hits: number; distinct: Set<string> }> = {};
  for (const lang of Object.keys(WORD_SETS)) counts[lang] = { hits: 0, distinct: new Set() };
  let read = 0;
  for (const match of text.matchAll(/\p{L}+/gu)) {
    if (++read > WORDS_READ) break;
    const word = match[0].toLowerCase();
    for (const [lang, words] of Object.entries(WORD_SETS)) {
      if (!words.has(word)) continue;
      counts[lang]!.hits++;
      counts[lang]!.distinct.add(word);
    }
  }
  const ranked = Object.entries(counts).sort((a, b) => b[1].hits - a[1].hits);
  const [best, next] = ranked;
  if (!best || best[0] === "eng" || best[1].hits < MIN_HITS || best[1].distinct.size < MIN_DISTINCT) return null;
  return best[1].hits >= MARGIN * (next?.[1].hits ?? 0) ? best[0] : null;
}

/** parseScript reads tesseract's OSD report ("Script: Arabic", "Script confidence: 96.11"); null when either is missing. */
export function parseScript(report: string): { script: string; confidence: number } | null {
  const script = /^Script:\s*(\S+)\s*$/m.exec(report)?.[1];
  const confidence = Number(/^Script confidence:\s*([\d.]+)\s*$/m.exec(report)?.[1]);
  return script && Number.isFinite(confidence) ? { script, confidence } : null;
}

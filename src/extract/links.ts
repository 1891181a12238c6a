/**
 * followLinks reads, for a web page given by URL, its most relevant same-site links (about,
 * contact, team, company, imprint, ...: the pages where facts about the site's owner live) and
 * appends their text to the page's, each under a heading naming its URL. At most MAX_LINKS pages
 * are read, concurrently, each through the same markdown operation (SSRF guard, deadline). A
 * linked page that fails is skipped and named in a warning: the answer still uses the rest. The
 * client's url_headers go only to links on exactly the origin it named (headersForOrigin).
 */
import type { MarkdownDeps, MarkdownOutcome, MarkdownSource } from "../markdown/service";
import { markdownOf } from "../markdown/service";
import { headersForOrigin } from "../security/ssrf";

/** MAX_LINKS: linked pages read at most. */
export const MAX_LINKS = 5;
/** Words in a link's URL or text that mark a page about the site's owner, best first. */
const RELEVANT = ["about", "contact", "team", "company", "impressum", "imprint", "legal", "people", "leadership", "careers", "pricing", "services", "products"];

export async function followLinks(page: MarkdownOutcome, source: MarkdownSource, deps: MarkdownDeps, signal?: AbortSignal): Promise<{ markdown: string; warnings: string[] }> {
  const base = page.source_url ?? source.url!;
  const links = relevantLinks(page.markdown, base);
  if (!links.length) return { markdown: page.markdown, warnings: ["follow_links: the page has no same-site links to about, contact or similar pages"] };
  const read = await Promise.all(
    links.map(async (url) => {
      try {
        // links are resolved against the page after redirects, which may be another origin than the
        // one the client named: its url_headers go only to links on exactly that origin
        const urlHeaders = headersForOrigin(source.urlHeaders ?? {}, source.url!, url);
        const linked = await markdownOf({ url, urlHeaders, render: source.render }, { mainContent: true, waitMs: 0 }, deps, signal);
        return { url, markdown: linked.markdown };
      } catch (error) {
        if (signal?.aborted) throw error;
        return { url, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const parts = [page.markdown];
  const warnings: string[] = [];
  for (const r of read) {
    if ("markdown" in r) parts.push(`---\n\n# Linked page: ${r.url}\n\n${r.markdown}`);
    else warnings.push(`follow_links: ${r.url} could not be read (${r.error})`);
  }
  return { markdown: parts.join("\n\n"), warnings };
}

/** relevantLinks picks same-site links from the page's markdown, ranked by RELEVANT, without duplicates. */
export function relevantLinks(markdown: string, base: string): string[] {
  const origin = new URL(base);
  const site = (host: string) => host.replace(/^www\./, "");
  const scored = new Map<string, number>();
  for (const m of markdown.matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    let url: URL;
    try {
      url = new URL(m[2]!, base);
    } catch {
      continue;
    }
    if (!/^https?:$/.test(url.protocol) || site(url.hostname) !== site(origin.hostname)) continue;
    url.hash = "";
    if (url.href === origin.href || /\.(pdf|jpe?g|png|gif|zip|mp4|mp3)$/i.test(url.pathname)) continue;
    const haystack = `${url.pathname} ${m[1]}`.toLowerCase();
    const rank = RELEVANT.findIndex((word) => haystack.includes(word));
    if (rank < 0) continue;
    const best = Math.min(scored.get(url.href) ?? Infinity, rank);
    scored.set(url.href, best);
  }
  return [...scored.entries()]
    .sort((a, b) => a[1] - b[1])
    .slice(0, MAX_LINKS)
    .map(([href]) => href);
}

/**
 * Whether a language's service provides a feature at all, told apart from "it found nothing
 * here". VS Code answers an empty list both when no provider is registered for the document's
 * language (JSON has no reference provider, pyright no implementation provider) and when the
 * provider has nothing at the position asked. A provider answers for some declaration of a
 * document, so an empty answer is checked by asking at up to PROBED_DECLARATIONS other
 * declarations of the same document: any answer shows the provider exists, and is remembered for
 * the language for the session (Services.caches.featuresAnswered); none means the language's
 * service does not provide it, and the tool says UnsupportedLanguageFeature instead of "none".
 */
import type { ResolvedDocument, ToolContext } from '../documents/context';
import type { HostLocationFeature, HostSymbol } from '../documents/editorPort';
import { documentSymbolTree, unsupportedFeature, walkSymbols } from './symbols';

export const PROBED_DECLARATIONS = 8;

const key = (doc: ResolvedDocument, feature: string) => `${doc.host.languageId}\0${feature}`;

/** Remembers that the feature's provider answered something for the document's language. */
export function providerAnswered(ctx: ToolContext, doc: ResolvedDocument, feature: string): void {
  ctx.services.caches.featuresAnswered.add(key(doc, feature));
}

/**
 * true: the language's provider of the feature has answered (in this session, or now at another
 * declaration); false: asked at up to PROBED_DECLARATIONS declarations, nothing answered;
 * undefined: the document has no other declaration to ask (the empty answer cannot be told apart).
 * `prefer` puts the declarations a provider is likeliest to answer at first (callables for calls);
 * `except` is the offset already asked.
 */
export async function providerAnswers(
  ctx: ToolContext,
  doc: ResolvedDocument,
  feature: string,
  answersAt: (offset: number) => Promise<boolean>,
  options: { except?: number; prefer?: (s: HostSymbol) => boolean } = {},
): Promise<boolean | undefined> {
  if (ctx.services.caches.featuresAnswered.has(key(doc, feature))) return true;
  const all = walkSymbols(await documentSymbolTree(ctx, doc))
    .map((x) => x.symbol)
    .filter((s) => s.selectionRange.start !== options.except);
  const prefer = options.prefer;
  const ordered = prefer ? [...all.filter((s) => prefer(s)), ...all.filter((s) => !prefer(s))] : all;
  const asked = ordered.slice(0, PROBED_DECLARATIONS);
  if (asked.length === 0) return undefined;
  for (const s of asked) {
    if (await answersAt(s.selectionRange.start)) {
      providerAnswered(ctx, doc, feature);
      return true;
    }
  }
  return false;
}

/**
 * After an empty answer of a location feature at `except`: throws UnsupportedLanguageFeature when
 * no other declaration of the document gets an answer either (the language's service does not
 * provide it); returns when the provider exists or cannot be told apart (the empty answer stands).
 */
export async function requireLocationProvider(
  ctx: ToolContext,
  doc: ResolvedDocument,
  feature: HostLocationFeature,
  name: string,
  except: number,
  prefer?: (s: HostSymbol) => boolean,
): Promise<void> {
  const answers = async (offset: number) => ((await ctx.editor.locationsAt(feature, doc.absolutePath, offset)) ?? []).length > 0;
  if ((await providerAnswers(ctx, doc, feature, answers, { except, prefer })) === false) throw unsupportedFeature(doc, name, true);
}

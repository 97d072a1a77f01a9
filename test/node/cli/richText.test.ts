/**
 * The tools decide most rich text without DOMPurify: a piece made only of plain elements and attributes is one
 * the policy keeps whole. These tests hold that shortcut to DOMPurify itself (over jsdom, with the policy), on
 * what articles are made of and on what attackers write: wherever the shortcut says "kept", DOMPurify removes nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { JSDOM } from "jsdom";
import createPurify from "dompurify";
import { RICH_TEXT_POLICY, applyRichTextHooks } from "../../../src/shared/richTextPolicy";
import { richTextRemovals } from "../../../src/cli/richText";
import { plainlyKept } from "../../../src/shared/plainRichText";

const judge = createPurify(new JSDOM("<!DOCTYPE html>").window as unknown as Window & typeof globalThis);
applyRichTextHooks(judge);
const removedByDomPurify = (html: string) => (judge.sanitize(html, RICH_TEXT_POLICY), judge.removed.length);

const PLAIN = [
  "<h2>Reset a password</h2>\n<p>Open <b>Settings</b>, then <i>Security</i>.</p>",
  '<ol start="2"><li>One</li><li><a href="https://help.example.com/a?b=c&amp;d=e#top" title="Help">Help</a></li></ol>',
  '<p><a href="/articles/en_US/Knowledge/reset-password">see also</a> <a href="mailto:support@example.com">mail</a> <a href="#step-2">step 2</a></p>',
  '<p><img src="images/diagram.png" alt="A diagram" width="320" height="200"></p><p><img src="data:image/png;base64,iVBORw0KGgo=" alt=""></p>',
  '<table border="1" cellpadding="4"><caption>Limits</caption><thead><tr><th scope="col">Plan</th></tr></thead><tbody><tr><td colspan="2" align="center">10 %</td></tr></tbody></table>',
  '<pre><code class="language-bash">echo "a &lt; b" &amp;&amp; exit</code></pre><blockquote lang="fr" dir="ltr">Citation</blockquote>',
  "<p>5 < 6 and a &lt;script&gt; written as text</p>", "plain text, no markup at all", "",
];

test("what articles are made of is decided without DOMPurify, and DOMPurify agrees nothing is removed", () => {
  for (const html of PLAIN) {
    assert.equal(plainlyKept(html), true, html);
    assert.equal(removedByDomPurify(html), 0, html);
    assert.deepEqual(richTextRemovals(html), []);
  }
});

const HOSTILE = [
  "<script>alert(1)</script>", '<p onclick="x()">a</p>', '<p style="color:red">a</p>', '<a href="javascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>', '<a href="java&#x09;script:alert(1)">x</a>', '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="data:text/html,<script>x</script>">x</a>', '<a href="vbscript:x">x</a>', '<a href="https://x" target="_blank">x</a>',
  '<img src="x" onerror="alert(1)">', '<img src="javascript:x">', '<img srcset="a.png 2x">', '<a name="body">x</a>', '<p id="cookie">x</p>',
  '<p data-x="1">x</p>', '<p aria-label="x">x</p>', "<!-- <img src=x onerror=alert(1)> -->", "<p><!--x--></p>", "<![CDATA[x]]>", "<?xml x?>",
  "<svg><p><style><img src=x onerror=alert(1)></style></p></svg>", "<math><mi><mglyph><style><img src=x></style></mglyph></mi></math>",
  "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>", "<form><input name=\"attributes\"></form>",
  "<iframe src=\"https://x\"></iframe>", "<style>p{}</style>", "<template><script>x</script></template>", "<xmp><p></xmp>",
  "<textarea><p></textarea>", "<title><p></title>", "<body onload=x()>", "<html><body><p>x</p></body></html>", "<p>x</p></div></script>",
  '<p title="a>b">x</p>', '<p class="--!>">x</p>', '<td width="expression(alert(1))">x</td>', '<p lang="javascript:x">x</p>',
  '<p align="x:y">x</p>', "<object data=x></object>", "<embed src=x>", "<link rel=stylesheet href=x>", "<meta http-equiv=refresh content=0>",
  "<base href=x>", "<select><option>x</option></select>", "<button>x</button>", "<details open ontoggle=x()><summary>x</summary></details>",
  "<custom-element>x</custom-element>", "<p is=\"x-y\">x</p>", "<a href=\"https://x\" ping=\"https://y\">x</a>", "<img src=\"https://x/a.png\" loading=lazy>",
];

test("what attackers write is left to DOMPurify: the shortcut never says a piece is kept that DOMPurify would change", () => {
  for (const html of HOSTILE) {
    if (plainlyKept(html)) assert.equal(removedByDomPurify(html), 0, `the shortcut kept ${html}`);
  }
  assert.ok(HOSTILE.filter(plainlyKept).length <= 1, "almost every hostile piece goes to DOMPurify");
});

test("mixtures of plain and hostile parts, thousands of them: the shortcut keeps only what DOMPurify keeps", () => {
  let seed = 20261128;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  // Each part plain more often than not, so that whole pieces are plain often enough to test the shortcut.
  const mostlyPlain = <T>(plain: readonly T[], hostile: readonly T[]) => (random() < 0.8 ? pick(plain) : pick(hostile));
  const tag = () => mostlyPlain(["p", "a", "img", "td", "span", "b", "ol", "table", "div", "pre"], ["script", "svg", "noscript", "style", "form", "math", "template", "body", "iframe"]);
  const attr = () => mostlyPlain(["", ' class="x"', ' title="t"', ' href="https://x/y"', ' src="images/a.png"', ' width="50%"', ' lang="en-US"'],
    [' href="javascript:x"', ' src="x:y"', ' width="a:b"', ' onclick="x"', ' style="x"', ' id="x"', ' name="body"', ' alt="</style><img src=x>"', ' target="_top"', " data-a=1"]);
  const inner = () => mostlyPlain(["text", "a &lt; b", "<br>", "&amp;"], ["</p>", "<!-- c -->", "x<y", "</textarea>"]);
  let kept = 0;
  for (let i = 0; i < 4000; i++) {
    const parts: string[] = [];
    for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
      const outer = tag();
      parts.push(`<${outer}${attr()}>${inner()}${random() < 0.5 ? `<${tag()}${attr()}>${inner()}` : ""}</${outer}>`);
    }
    const html = parts.join(random() < 0.5 ? "" : "\n");
    if (plainlyKept(html)) {
      kept++;
      assert.equal(removedByDomPurify(html), 0, `the shortcut kept ${html}, which DOMPurify changes`);
    }
  }
  assert.ok(kept > 400, `the shortcut decided ${kept} of 4,000 pieces: it is not idle`);
});

/**
 * Emphasis across a hard break in HTML (Word's "Save as web page", mail bodies, pages): a bold or
 * italic run that holds a <br> stays bold or italic on each of its lines.
 */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown } from "../src/convert/html";

const markdownOf = (html: string) => htmlToMarkdown(html, { mainContent: false }).markdown.trim();

describe("emphasis across <br>", () => {
  test("a bold run split by one <br> is bold on both lines", () => {
    expect(markdownOf("<p><b>Section 508<br>Program Office</b></p>")).toBe("**Section 508**\\\n**Program Office**");
  });

  test("italic inside bold keeps both marks on both lines; spaces stay outside the marks", () => {
    expect(markdownOf("<p>Signed: <strong><em>Jane Doe <br> Director</em></strong> today</p>")).toBe(
      "Signed: ***Jane Doe***\\\n***Director*** today",
    );
  });

  test("two <br> in a bold run end the paragraph, each part bold", () => {
    expect(markdownOf("<p><b>Name<br><br>Address</b></p>")).toBe("**Name**\n\n**Address**");
  });

  test("a bold run inside a table cell stays bold on each line of the cell", () => {
    expect(markdownOf("<table><tr><th>h</th><th>i</th></tr><tr><td><b>a<br>b</b></td><td>c</td></tr></table>")).toContain("| **a**<br>**b** | c |");
  });
});

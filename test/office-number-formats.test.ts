/**
 * A spreadsheet's numbers as its cells show them: the number format codes Excel, LibreOffice and
 * Google Sheets write (currency in quotes, escaped or as a `[$€-407]` tag, accounting sections,
 * negatives in brackets, percentages, thousands), and a sheet made in LibreOffice with a currency,
 * a fixed-decimal and a percentage cell, converted to XLSX by real LibreOffice as the service does.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderNumberFormat } from "../src/convert/numberFormat";
import { convertXlsx } from "../src/convert/xlsx";
import { convert, officeWorkDir } from "./helpers/office";

const { work, soffice } = officeWorkDir("office-number-formats-");

/** the accounting format Excel writes for euros in a German locale (four sections) */
const ACCOUNTING_EUR = '_-* #,##0.00\\ "€"_-;\\-* #,##0.00\\ "€"_-;_-* "-"??\\ "€"_-;_-@_-';

describe("renderNumberFormat", () => {
  test("currency: a locale tag, a bare sign, a quoted or escaped suffix, the accounting sections", () => {
    expect(renderNumberFormat(460, "[$€-407]#,##0.00")).toBe("€460.00");
    expect(renderNumberFormat(1460, "#,##0.00 [$€-407]")).toBe("1,460.00 €");
    expect(renderNumberFormat(1234.5, "[$USD] #,##0.00")).toBe("USD 1,234.50");
    expect(renderNumberFormat(12, ACCOUNTING_EUR)).toBe("12.00 €");
    expect(renderNumberFormat(-3.5, ACCOUNTING_EUR)).toBe("-3.50 €");
    expect(renderNumberFormat(0, ACCOUNTING_EUR)).toBe("- €");
    expect(renderNumberFormat(1234.5, "$#,##0.00_);[Red]($#,##0.00)")).toBe("$1,234.50");
    expect(renderNumberFormat(-1234.5, "$#,##0.00_);[Red]($#,##0.00)")).toBe("($1,234.50)");
  });

  test("fixed decimals, grouping, scaling by trailing commas, percentages, leading zeros", () => {
    expect(renderNumberFormat(300, "0.00")).toBe("300.00");
    expect(renderNumberFormat(1.005, "0.00")).toBe("1.01"); // the decimal value rounds half up, not its binary neighbour
    expect(renderNumberFormat(-0.001, "0.00")).toBe("0.00"); // no "-0.00"
    expect(renderNumberFormat(-12, "#,##0.00")).toBe("-12.00");
    expect(renderNumberFormat(1234567, '#,##0,"K"')).toBe("1,235K");
    expect(renderNumberFormat(0.125, "0.0%")).toBe("12.5%");
    expect(renderNumberFormat(3, "000")).toBe("003");
    expect(renderNumberFormat(0.5, "#.##")).toBe(".5");
    expect(renderNumberFormat(0, '#,##0.00;-#,##0.00;"-"')).toBe("-");
  });

  test("what it does not draw comes back null, and the caller writes the plain number", () => {
    expect(renderNumberFormat(5, "General")).toBeNull();
    expect(renderNumberFormat(5, "")).toBeNull();
    expect(renderNumberFormat(5, "0.00E+00")).toBeNull();
    expect(renderNumberFormat(0.5, "# ?/?")).toBeNull();
    expect(renderNumberFormat(7, "[>=100]0;0.0")).toBeNull();
    expect(renderNumberFormat(42, "@")).toBeNull();
    expect(renderNumberFormat(1e20, "#,##0")).toBeNull();
  });
});

test("a LibreOffice sheet's currency, fixed-decimal and percentage cells read as the sheet shows them, through LibreOffice's XLSX", async () => {
  const fods = join(work, "costs.fods");
  writeFileSync(
    fods,
    `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:automatic-styles>
  <number:currency-style style:name="EUR"><number:currency-symbol number:language="de" number:country="DE">€</number:currency-symbol><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:currency-style>
  <number:number-style style:name="FIXED"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1"/></number:number-style>
  <number:percentage-style style:name="PCT"><number:number number:decimal-places="1" number:min-decimal-places="1" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>
  <style:style style:name="ceEUR" style:family="table-cell" style:data-style-name="EUR"/>
  <style:style style:name="ceFIXED" style:family="table-cell" style:data-style-name="FIXED"/>
  <style:style style:name="cePCT" style:family="table-cell" style:data-style-name="PCT"/>
 </office:automatic-styles>
 <office:body><office:spreadsheet><table:table table:name="Costs">
  <table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Amount</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Hours</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Share</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Count</text:p></table:table-cell></table:table-row>
  <table:table-row><table:table-cell office:value-type="string"><text:p>Hotel</text:p></table:table-cell><table:table-cell table:style-name="ceEUR" office:value-type="currency" office:currency="EUR" office:value="1460"><text:p>€1,460.00</text:p></table:table-cell><table:table-cell table:style-name="ceFIXED" office:value-type="float" office:value="300"><text:p>300.00</text:p></table:table-cell><table:table-cell table:style-name="cePCT" office:value-type="percentage" office:value="0.125"><text:p>12.5%</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>
 </table:table></office:spreadsheet></office:body></office:document>`,
  );
  const { markdown } = await convert(convertXlsx, "costs.xlsx", soffice(fods, "xlsx", "costs.xlsx"));
  // before numberFormat.ts: "| Hotel | 1460 | 300 | 12.5% | 7 |" (the euro and the fixed decimals lost)
  expect(markdown).toContain("| Hotel | €1,460.00 | 300.00 | 12.5% | 7 |");
}, 90_000);

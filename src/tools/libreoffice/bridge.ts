/**
 * BRIDGE_SOURCE is the Python UNO bridge that drives one warm soffice. docintel ships as a single
 * compiled binary, so the script lives here as a string and is written to the work dir at start;
 * it runs under Debian's /usr/bin/python3, the interpreter python3-uno is built for.
 *
 * Protocol (one JSON object per line):
 * - argv: `<pipe name> <launch timeout in seconds>`; the bridge retries connecting to soffice's UNO pipe
 *   (a Unix socket in /tmp, shared with soffice's sandbox) until then.
 * - first stdout line: `{"ready": true}` or `{"ready": false, "reason": "no_uno" | "connect_failed", "message"}`.
 * - stdin request: `{"id", "in", "out", "filters": {kind: exportFilter}, "importFilter"?, "importOptions"?,
 *   "refuseImportFilters"?: [name]}` where kind is "text", "spreadsheet", "presentation" or "drawing"
 *   (what LibreOffice loaded); a document that loaded through a refused import filter (the plain-text
 *   fallback LibreOffice uses for bytes it does not recognise) is answered as "load_failed".
 * - stdout answer: `{"id", "ok": true, "kind"}` or `{"id", "ok": false, "reason", "message"}` with reason
 *   "password", "load_failed", "wrong_kind", "store_failed", or "disconnected" (soffice went away; the
 *   bridge exits after answering).
 * Documents load hidden, read-only, with an interaction handler that aborts every question, so a
 * password prompt or a repair dialog fails the load instead of waiting forever.
 */
export const BRIDGE_SOURCE = String.raw`
"""docintel LibreOffice bridge: connects to one warm soffice over a UNO pipe and converts documents.

argv: pipe_name launch_timeout_seconds
stdin: one JSON object per line {"id", "in", "out", "filters": {kind: filter}, "importFilter"?, "importOptions"?}
stdout: {"ready": true} once connected, then one JSON answer per request:
        {"id", "ok": true} or {"id", "ok": false, "reason": "password"|"load_failed"|"wrong_kind"|"store_failed"|"disconnected", "message"}
"""
import json
import sys
import time

try:
    import uno
    import unohelper
    from com.sun.star.beans import NamedValue, PropertyValue
    from com.sun.star.task import XInteractionHandler
except Exception as error:  # python3-uno missing
    sys.stdout.write(json.dumps({"ready": False, "reason": "no_uno", "message": str(error)}) + "\n")
    sys.stdout.flush()
    sys.exit(3)

PASSWORD_REQUESTS = (
    "com.sun.star.task.DocumentPasswordRequest",
    "com.sun.star.task.DocumentPasswordRequest2",
    "com.sun.star.task.DocumentMSPasswordRequest",
    "com.sun.star.task.DocumentMSPasswordRequest2",
    "com.sun.star.task.PasswordRequest",
    "com.sun.star.task.MasterPasswordRequest",
)

KINDS = (
    ("com.sun.star.text.TextDocument", "text"),
    ("com.sun.star.sheet.SpreadsheetDocument", "spreadsheet"),
    ("com.sun.star.presentation.PresentationDocument", "presentation"),
    ("com.sun.star.drawing.DrawingDocument", "drawing"),
)


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def type_name(value):
    try:
        return value.typeName
    except AttributeError:
        return type(value).__module__ + "." + type(value).__name__


class RefuseInteraction(unohelper.Base, XInteractionHandler):
    """RefuseInteraction aborts every question LibreOffice asks, and remembers password prompts."""

    def __init__(self):
        self.password_asked = False

    def handle(self, request):
        question = request.getRequest()
        name = type_name(question)
        if name in PASSWORD_REQUESTS or "Password" in name:
            self.password_asked = True
        abort = uno.getTypeByName("com.sun.star.task.XInteractionAbort")
        for continuation in request.getContinuations():
            try:
                if continuation.queryInterface(abort) is not None:
                    continuation.select()
                    return
            except Exception:
                pass


def connect(pipe, deadline):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe
    last = None
    while time.time() < deadline:
        try:
            ctx = resolver.resolve(url)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception as error:
            last = error
            time.sleep(0.1)
    raise RuntimeError("could not connect to soffice on pipe %s: %s" % (pipe, last))


def kind_of(doc):
    for service, kind in KINDS:
        try:
            if doc.supportsService(service):
                return kind
        except Exception:
            pass
    return "unknown"


def loaded_with(doc):
    try:
        for arg in doc.getArgs():
            if arg.Name == "FilterName":
                return arg.Value
    except Exception:
        pass
    return ""


def close_quietly(doc):
    try:
        doc.close(True)
    except Exception:
        try:
            doc.dispose()
        except Exception:
            pass


def is_disconnect(error):
    name = type_name(error)
    return "DisposedException" in name or "RuntimeException" in name and "Binary URP bridge" in str(error)


def count_pages(doc):
    """count_pages: the pages of a text document as LibreOffice lays it out (it lays it out first)."""
    try:
        return int(doc.getCurrentController().getPropertyValue("PageCount"))
    except Exception:
        return 0


def refresh_page_count(doc):
    """refresh_page_count: a text document's statistics hold what its file said (RTF's importer
    gives 99 pages; DOC and ODT keep the author's last count), and the DOCX export writes them
    as docProps/app.xml <Pages>: they are set to the pages of the layout before the export."""
    pages = count_pages(doc)
    if pages <= 0:
        return
    try:
        props = doc.getDocumentProperties()
        stats = [s for s in props.DocumentStatistics if s.Name != "PageCount"]
        count = NamedValue()
        count.Name = "PageCount"
        count.Value = pages
        props.DocumentStatistics = tuple(stats + [count])
    except Exception:
        pass


def convert(desktop, job):
    handler = RefuseInteraction()
    props = [prop("Hidden", True), prop("ReadOnly", True), prop("InteractionHandler", handler)]
    if job.get("importFilter"):
        props.append(prop("FilterName", job["importFilter"]))
    if job.get("importOptions"):
        props.append(prop("FilterOptions", job["importOptions"]))
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(job["in"]), "_blank", 0, tuple(props))
    except Exception as error:
        if is_disconnect(error):
            raise
        return {"ok": False, "reason": "password" if handler.password_asked else "load_failed", "message": str(error)[:500]}
    if doc is None:
        return {"ok": False, "reason": "password" if handler.password_asked else "load_failed", "message": "LibreOffice returned no document"}
    try:
        kind = kind_of(doc)
        import_filter = loaded_with(doc)
        if import_filter in job.get("refuseImportFilters", []):
            return {"ok": False, "reason": "load_failed", "message": "LibreOffice could only read the file as plain text (%s)" % import_filter}
        filter_name = job["filters"].get(kind)
        if not filter_name:
            return {"ok": False, "reason": "wrong_kind", "message": "a %s document cannot be exported to this format" % kind, "kind": kind}
        if kind == "text" and filter_name == "MS Word 2007 XML":
            refresh_page_count(doc)
        try:
            doc.storeToURL(uno.systemPathToFileUrl(job["out"]), (prop("FilterName", filter_name), prop("Overwrite", True)))
        except Exception as error:
            if is_disconnect(error):
                raise
            return {"ok": False, "reason": "store_failed", "message": str(error)[:500], "kind": kind}
        return {"ok": True, "kind": kind}
    finally:
        close_quietly(doc)


def answer(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    pipe = sys.argv[1]
    deadline = time.time() + float(sys.argv[2])
    try:
        desktop = connect(pipe, deadline)
    except Exception as error:
        answer({"ready": False, "reason": "connect_failed", "message": str(error)[:500]})
        sys.exit(4)
    answer({"ready": True})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        job = json.loads(line)
        try:
            result = convert(desktop, job)
        except Exception as error:
            answer({"id": job.get("id"), "ok": False, "reason": "disconnected", "message": str(error)[:500]})
            sys.exit(5)
        result["id"] = job.get("id")
        answer(result)


main()
`;

# Runs inside a user's sandbox (python3 -c "$WORKCELL_DOC_PROGRAM"): prints the text of the document
# at $WORKCELL_DOC_PATH (relative to the home). Exit 3: this image lacks the tool for the kind;
# exit 4: the file is not a readable document of that kind; exit 5: there is no such file.
# OpenDocument and EPUB need only the standard library; PDF needs pypdf or pdftotext (poppler-utils,
# in Workcell's default image).
import os
import html.parser
import posixpath
import re
import subprocess
import sys
import zipfile
import xml.etree.ElementTree as ET

path = os.environ["WORKCELL_DOC_PATH"]
kind = os.environ["WORKCELL_DOC_KIND"]
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"


def numbered(names, pattern):
    found = [n for n in names if re.fullmatch(pattern, n)]
    return sorted(found, key=lambda n: int(re.findall(r"\d+", n)[-1]))


def texts(element, tag):
    return "".join(t.text or "" for t in element.iter(tag))


def docx(z):
    root = ET.fromstring(z.read("word/document.xml"))
    return "\n".join(texts(p, W + "t") for p in root.iter(W + "p"))


def pptx(z):
    out = []
    for number, name in enumerate(numbered(z.namelist(), r"ppt/slides/slide\d+\.xml"), 1):
        out.append("--- slide %d ---" % number)
        for p in ET.fromstring(z.read(name)).iter(A + "p"):
            line = texts(p, A + "t")
            if line:
                out.append(line)
    return "\n".join(out)


def xlsx(z):
    names = z.namelist()
    shared = []
    if "xl/sharedStrings.xml" in names:
        shared = [texts(si, S + "t") for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iter(S + "si")]
    titles = [s.get("name") for s in ET.fromstring(z.read("xl/workbook.xml")).iter(S + "sheet")]
    out = []
    for index, name in enumerate(numbered(names, r"xl/worksheets/sheet\d+\.xml")):
        out.append("--- sheet %s ---" % (titles[index] if index < len(titles) else index + 1))
        for row in ET.fromstring(z.read(name)).iter(S + "row"):
            cells = []
            for c in row.iter(S + "c"):
                v = c.find(S + "v")
                if c.get("t") == "s" and v is not None and v.text:
                    cells.append(shared[int(v.text)])
                elif c.get("t") == "inlineStr":
                    cells.append(texts(c, S + "t"))
                else:
                    cells.append(v.text if v is not None and v.text else "")
            out.append("\t".join(cells))
    return "\n".join(out)


def odf_content(z):
    return ET.fromstring(z.read("content.xml"))


def odt(z):
    return "\n".join("".join(p.itertext()) for p in odf_content(z).iter(TEXT + "p"))


def ods(z):
    out = []
    for table in odf_content(z).iter(TABLE + "table"):
        out.append("--- %s ---" % table.get(TABLE + "name", "Sheet"))
        for row in table.iter(TABLE + "table-row"):
            cells = [" ".join("".join(p.itertext()) for p in cell.iter(TEXT + "p")) for cell in row.iter(TABLE + "table-cell")]
            out.append("\t".join(cells))
    return "\n".join(out)


def odp(z):
    out = []
    for number, page in enumerate(odf_content(z).iter(DRAW + "page"), 1):
        out.append("--- Slide %d ---" % number)
        for p in page.iter(TEXT + "p"):
            line = "".join(p.itertext()).strip()
            if line:
                out.append(line)
    return "\n".join(out)


class BodyText(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.depth = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        self.depth += tag == "body"

    def handle_endtag(self, tag):
        self.depth -= tag == "body" and self.depth > 0

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def body_text(data):
    parser = BodyText()
    parser.feed(data.decode("utf-8", "replace"))
    return "".join(parser.parts).strip()


def epub(z):
    names = z.namelist()
    container = ET.fromstring(z.read("META-INF/container.xml"))
    rootfile = next((e for e in container.iter() if e.tag.endswith("rootfile")), None)
    if rootfile is None:
        return "\n\n".join(body_text(z.read(n)) for n in names if n.endswith((".html", ".xhtml", ".htm")))
    opf_path = rootfile.get("full-path", "")
    opf = ET.fromstring(z.read(opf_path))
    manifest = {e.get("id"): e.get("href") for e in opf.iter() if e.tag.endswith("}item") or e.tag == "item"}
    parts = []
    for ref in (e.get("idref") for e in opf.iter() if e.tag.endswith("itemref")):
        item = posixpath.join(posixpath.dirname(opf_path), manifest.get(ref) or "")
        if item in names:
            parts.append(body_text(z.read(item)))
    return "\n\n".join(parts)


def pdf():
    try:
        from pypdf import PdfReader
        return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)
    except ImportError:
        pass
    try:
        done = subprocess.run(["pdftotext", "-enc", "UTF-8", "./" + path, "-"], capture_output=True, timeout=60)
    except FileNotFoundError:
        sys.stderr.write("no PDF text extractor (pypdf or pdftotext) in this sandbox image\n")
        sys.exit(3)
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode("utf-8", "replace")[-500:])
        sys.exit(4)
    # pdftotext ends each page with a form feed; pages are joined with a newline, as pypdf's are.
    pages = done.stdout.decode("utf-8", "replace").split("\f")
    if pages and pages[-1] == "":
        pages.pop()
    return "\n".join(page.rstrip("\n") for page in pages)


if not os.path.isfile(path):
    sys.stderr.write("File not found\n")
    sys.exit(5)


try:
    if kind == "pdf":
        text = pdf()
    else:
        with zipfile.ZipFile(path) as z:
            text = {"docx": docx, "pptx": pptx, "xlsx": xlsx, "odt": odt, "ods": ods, "odp": odp, "epub": epub}[kind](z)
except (zipfile.BadZipFile, KeyError, ET.ParseError, ValueError, IndexError) as e:
    sys.stderr.write("not a readable %s document: %s\n" % (kind, e))
    sys.exit(4)
except Exception as e:  # pypdf raises its own errors for broken files
    sys.stderr.write("not a readable %s document: %s\n" % (kind, e))
    sys.exit(4)
sys.stdout.write(text)

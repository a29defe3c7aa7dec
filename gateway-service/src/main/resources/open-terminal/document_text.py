# Runs inside a user's sandbox (python3 -c "$WORKCELL_DOC_PROGRAM"): prints the text of the document
# at $WORKCELL_DOC_PATH (relative to the home). Exit 3: this image lacks the tool for the kind;
# exit 4: the file is not a readable document of that kind.
import os
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


def pdf():
    try:
        from pypdf import PdfReader
        return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)
    except ImportError:
        pass
    try:
        done = subprocess.run(["pdftotext", "-layout", "--", path, "-"], capture_output=True, timeout=60)
    except FileNotFoundError:
        sys.stderr.write("no PDF text extractor (pypdf or pdftotext) in this sandbox image\n")
        sys.exit(3)
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode("utf-8", "replace")[-500:])
        sys.exit(4)
    return done.stdout.decode("utf-8", "replace")


try:
    if kind == "pdf":
        text = pdf()
    else:
        with zipfile.ZipFile(path) as z:
            text = {"docx": docx, "pptx": pptx, "xlsx": xlsx}[kind](z)
except (zipfile.BadZipFile, KeyError, ET.ParseError, ValueError, IndexError) as e:
    sys.stderr.write("not a readable %s document: %s\n" % (kind, e))
    sys.exit(4)
except Exception as e:  # pypdf raises its own errors for broken files
    sys.stderr.write("not a readable %s document: %s\n" % (kind, e))
    sys.exit(4)
sys.stdout.write(text)

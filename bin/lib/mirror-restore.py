"""bin/workcell restore: copies files from the mirror's bucket back into a sandbox through the file API.

Usage: mirror-restore.py (--home USER_ID | --task TASK_ID) [--path P] [--deleted-on YYYY-MM-DD]
Environment: S3_URL, S3_BUCKET, S3_ACCESS_KEY, S3_SECRET_KEY (the stack's), WORKCELL_URL, and
WORKCELL_ADMIN_TOKEN (tasks) or WORKCELL_TERMINAL_SERVER_KEY (homes). A home is named by its Open
Terminal user id; its files are under homes/<sha256 of the id>/. Every file, text or not and of any
size, goes in parts of 1 MiB through the part upload (the Work API's PUT .../file/part, Open
Terminal's POST .../files/upload/part), which puts it in place whole at the last part, with the
mode the mirror recorded.
"""
import argparse, hashlib, os, secrets, subprocess, sys, tempfile, time, urllib.parse, xml.etree.ElementTree as ET

PART = 1024 * 1024
NS = "{http://s3.amazonaws.com/doc/2006-03-01/}"


def s3(path, out=None, headers=None):
    cmd = ["curl", "-sf", "--max-time", "300", "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD",
           "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", os.environ["S3_ACCESS_KEY"] + ":" + os.environ["S3_SECRET_KEY"],
           os.environ["S3_URL"] + "/" + os.environ["S3_BUCKET"] + path]
    if out:
        cmd[1:1] = ["-o", out]
    if headers:
        cmd[1:1] = ["-D", headers]
    return subprocess.run(cmd, check=True, capture_output=True).stdout


def recorded_mode(headers):
    """The object's x-amz-meta-mode (octal permission bits), or None."""
    with open(headers, encoding="latin-1") as h:
        for line in h:
            name, _, value = line.partition(":")
            if name.strip().lower() == "x-amz-meta-mode" and value.strip().isdigit():
                return value.strip()
    return None


def send_parts(a, rel, local, mode):
    """Sends the file in parts; returns None when restored, else the failure's text."""
    url = os.environ["WORKCELL_URL"]
    query = {"upload": secrets.token_hex(16)}
    if mode:
        query["mode"] = mode
    if a.home:
        query["path"] = "/home/user/" + rel
        cmd = ["curl", "-sS", "--max-time", "120", "-w", "\n%{http_code}", "-X", "POST",
               "-H", "Authorization: Bearer " + os.environ["WORKCELL_TERMINAL_SERVER_KEY"], "-H", "X-User-Id: " + a.home]
        endpoint = url + "/api/open-terminal/files/upload/part?"
    else:
        query["path"] = rel
        cmd = ["curl", "-sS", "--max-time", "120", "-w", "\n%{http_code}", "-X", "PUT",
               "-H", "Authorization: Bearer " + os.environ["WORKCELL_ADMIN_TOKEN"]]
        endpoint = url + "/api/work/tasks/" + urllib.parse.quote(a.task) + "/file/part?"
    cmd += ["-H", "Content-Type: application/octet-stream", "--data-binary", "@-"]
    size = os.path.getsize(local)
    offset = 0
    with open(local, "rb") as f:
        while True:
            part = f.read(PART)
            query["offset"] = str(offset)
            query["last"] = "true" if offset + len(part) >= size else "false"
            for attempt in range(30):
                done = subprocess.run(cmd + [endpoint + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)],
                                      input=part, capture_output=True)
                body, _, status = done.stdout.decode(errors="replace").rpartition("\n")
                if status not in ("429", "503"):
                    break
                time.sleep(1)  # rate limited or busy: the same part again (a resent part is harmless)
            if done.returncode != 0 or not status.startswith("2"):
                return "HTTP %s at offset %d: %s%s" % (status or "-", offset, body[:200], done.stderr.decode(errors="replace")[:200])
            offset += len(part)
            if query["last"] == "true":
                return None


def keys(prefix):
    token = None
    while True:
        query = {"list-type": "2", "prefix": prefix}
        if token:
            query["continuation-token"] = token
        root = ET.fromstring(s3("?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)))
        for c in root.iter(NS + "Contents"):
            yield c.find(NS + "Key").text
        token = root.findtext(NS + "NextContinuationToken")
        if root.findtext(NS + "IsTruncated") != "true" or not token:
            return


def main():
    p = argparse.ArgumentParser(prog="bin/workcell restore")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--home")
    who.add_argument("--task")
    p.add_argument("--path", default="")
    p.add_argument("--deleted-on")
    a = p.parse_args()
    prefix = ("homes/" + hashlib.sha256(a.home.encode()).hexdigest() + "/") if a.home else ("tasks/" + a.task + "/")
    source = (".deleted/" + a.deleted_on + "/" if a.deleted_on else "") + prefix
    restored = failed = 0
    for key in keys(source + a.path.lstrip("/")):
        rel = key[len(source):]
        with tempfile.TemporaryDirectory() as tmp:
            local, headers = os.path.join(tmp, "object"), os.path.join(tmp, "headers")
            s3("/" + urllib.parse.quote(key), local, headers)
            failure = send_parts(a, rel, local, recorded_mode(headers))
        if failure is None:
            print("restored " + rel)
            restored += 1
        else:
            print("failed " + rel + ": " + failure)
            failed += 1
    print("%d restored, %d not restored from %s" % (restored, failed, source))
    return 0 if failed == 0 and restored > 0 else 1


if __name__ == "__main__":
    sys.exit(main())

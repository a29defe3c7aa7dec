"""bin/workcell restore: copies files from the mirror's bucket back into a sandbox through the file API.

Usage: mirror-restore.py (--home USER_ID | --task TASK_ID) [--path P] [--deleted-on YYYY-MM-DD]
Environment: S3_URL, S3_BUCKET, S3_ACCESS_KEY, S3_SECRET_KEY (the stack's), WORKCELL_URL, and
WORKCELL_ADMIN_TOKEN (tasks) or WORKCELL_TERMINAL_SERVER_KEY (homes). A home is named by its Open
Terminal user id; its files are under homes/<sha256 of the id>/. Task files go through the Work API
(text files up to 2,000,000 bytes), home files through the Open Terminal upload (any bytes, same limit).
"""
import argparse, hashlib, json, os, subprocess, sys, tempfile, urllib.parse, xml.etree.ElementTree as ET

NS = "{http://s3.amazonaws.com/doc/2006-03-01/}"


def s3(path, out=None):
    cmd = ["curl", "-sf", "--max-time", "60", "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD",
           "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", os.environ["S3_ACCESS_KEY"] + ":" + os.environ["S3_SECRET_KEY"],
           os.environ["S3_URL"] + "/" + os.environ["S3_BUCKET"] + path]
    if out:
        cmd[1:1] = ["-o", out]
    return subprocess.run(cmd, check=True, capture_output=True).stdout


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
    url = os.environ["WORKCELL_URL"]
    restored = failed = 0
    for key in keys(source + a.path.lstrip("/")):
        rel = key[len(source):]
        with tempfile.NamedTemporaryFile() as f:
            s3("/" + urllib.parse.quote(key), f.name)
            if a.home:
                directory, _, name = ("/home/user/" + rel).rpartition("/")
                cmd = ["curl", "-sf", "-X", "POST", "-H", "Authorization: Bearer " + os.environ["WORKCELL_TERMINAL_SERVER_KEY"],
                       "-H", "X-User-Id: " + a.home, "-F", "file=@" + f.name + ";filename=" + name,
                       url + "/api/open-terminal/files/upload?directory=" + urllib.parse.quote(directory)]
            else:
                try:
                    content = open(f.name, "rb").read().decode("utf-8")
                except UnicodeDecodeError:
                    print("skipped (not text; the Work API writes text): " + rel)
                    failed += 1
                    continue
                body = json.dumps({"path": rel, "content": content, "createParents": True})
                cmd = ["curl", "-sf", "-X", "PUT", "-H", "Authorization: Bearer " + os.environ["WORKCELL_ADMIN_TOKEN"],
                       "-H", "Content-Type: application/json", "--data-binary", "@-",
                       url + "/api/work/tasks/" + urllib.parse.quote(a.task) + "/file"]
            done = subprocess.run(cmd, input=None if a.home else body.encode(), capture_output=True)
            if done.returncode == 0:
                print("restored " + rel)
                restored += 1
            else:
                print("failed " + rel + ": " + done.stdout.decode(errors="replace")[:200])
                failed += 1
    print("%d restored, %d not restored from %s" % (restored, failed, source))
    return 0 if failed == 0 and restored > 0 else 1


if __name__ == "__main__":
    sys.exit(main())

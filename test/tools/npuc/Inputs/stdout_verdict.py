"""stdout_verdict.py RC OUT ERR: how a run that had a JSON document go to
standard output ended. Prints 'json' when it exited 0 and OUT is exactly one
JSON document, 'refused' when it exited 2 writing nothing to OUT and ERR names
standard output, and otherwise what happened."""
import json
import sys

rc = int(open(sys.argv[1]).read())
out = open(sys.argv[2]).read()
err = open(sys.argv[3]).read()
if rc == 2 and not out and "standard output" in err:
    print("refused")
elif rc == 0:
    try:
        json.loads(out)
        print("json")
    except ValueError as e:
        print("exit 0, but standard output is not one JSON document (%s); it ends: %r" % (e, out[-160:]))
else:
    print("exit %d; stderr: %r" % (rc, err[-300:]))

"""
What the course bridges (agents/clients/cpsc4610, agents/clients/csc384) share: importing a
student's file with a message a student can act on, never a raw traceback for a file that does not
parse, and a clear word when the file is Python 2.
"""
import importlib
import os
import re
import sys
import traceback


def fail(message):
    """Ends the program with `message` on stderr: the grader shows it as the request's error."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    sys.exit(1)


def looks_like_python2(source):
    """The line number of a Python 2 print statement or `except X, e:`, or None."""
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        if re.match(r"\s*print\s+[^\s(=]", code) or re.match(r"\s*except\s+[\w.]+\s*,\s*\w+\s*:", code):
            return number
    return None


def import_student_module(name):
    """The student's NAME.py (from the working directory), or a clear failure naming the file and the problem."""
    try:
        return importlib.import_module(name)
    except SyntaxError as e:
        file = (e.filename or name + ".py").rsplit("/", 1)[-1]
        try:
            with open(e.filename or name + ".py", encoding="utf-8", errors="replace") as f:
                line = looks_like_python2(f.read())
        except OSError:
            line = None
        if line is not None and sys.version_info[0] >= 3:
            fail("%s looks like Python 2 (line %d), which cannot run on %s: print(...) is a function in Python 3, and "
                 "`except X, e` is `except X as e`. Your instructor can give a Python 2 interpreter with --python PATH."
                 % (file, line, "Python %d.%d" % sys.version_info[:2]))
        fail("%s has a syntax error: %s (line %s)" % (file, e.msg, e.lineno))
    except Exception:
        fail("importing %s.py failed:\n%s" % (name, traceback.format_exc(limit=-3)))


def describe_exception():
    """The exception being handled as a student reads it: its type and message first (what the
    grader's console shows), then the student's own frames (the bridges' are left out)."""
    kind, value, tb = sys.exc_info()
    clients = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frames = [f for f in traceback.extract_tb(tb) if not os.path.abspath(f[0]).startswith(clients + os.sep)][-4:]
    where = "".join(traceback.format_list(frames))
    return "%s: %s%s" % (kind.__name__, value, "\n" + where.rstrip("\n") if where else "")

# Tries to get at what the grader keeps from submissions; writes what worked to next_state.txt.
import json, os, socket

targets = json.load(open("targets.json"))
got = []

def attempt(name, action):
    try:
        result = action()
        got.append(f"{name}: {result}")
    except Exception as e:  # each refusal is the expected outcome
        got.append(f"{name}: refused ({type(e).__name__})")

attempt("read canary", lambda: open(targets["canary"]).read())
attempt("list suite", lambda: os.listdir(os.path.dirname(targets["canary"])))
attempt("write /tmp", lambda: open(f"/tmp/{targets['marker']}", "w").write("x"))
attempt("write project", lambda: open(os.path.join(targets["project"], targets["marker"]), "w").write("x"))
attempt("list shared", lambda: os.listdir(targets["shared"]))
attempt("append neighbour", lambda: open(targets["neighbour"], "a").write("\nrm -rf /\n"))
attempt("connect", lambda: socket.create_connection(("127.0.0.1", targets["port"]), timeout=1).close())
with open("next_state.txt", "w") as f:
    f.write("\n".join(got) + "\n")
print("\n".join(got))

# 2 GB into next_state.txt, then 300 MB onto stdout: the grader must keep neither.
import sys

block = "0" * (1 << 20)
try:
    with open("next_state.txt", "w") as f:
        for _ in range(2048):
            f.write(block)
except OSError as e:
    print(f"stopped writing: {e}", file=sys.stderr)
for _ in range(300):
    sys.stdout.write(block)

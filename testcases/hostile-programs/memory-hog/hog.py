# Allocates (and, bytearray being zeroed, touches) 16 MB at a time until something stops it.
blocks = []
while True:
    blocks.append(bytearray(16 << 20))

// Allocates 16 MB blocks and touches every page, so each counts as resident memory.
#include <cstring>
#include <vector>

int main() {
    std::vector<char*> blocks;
    for (;;) {
        char* block = new char[16 << 20];
        std::memset(block, 1, 16 << 20);
        blocks.push_back(block);
    }
}

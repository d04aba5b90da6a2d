/*
 * CSCI-561 Mancala homework (seed 000): your program, in C++. The course builds and runs it as
 *
 *     g++ mancala.cpp -o mancala && ./mancala -i input.txt
 *
 * (mancala.cpp: the compiler's default standard; this file is C++11 too, so it may be handed in
 * as mancala11.cpp, which the course builds with -std=c++11). It reads the input file (task,
 * player, cut-off depth, the board) and writes next_state.txt and, for MiniMax and Alpha-Beta,
 * traverse_log.txt in the folder it runs in. This starter reads the input and writes the files in
 * the course's formats; the rules and the searches are yours to write (the functions that throw
 * NotWrittenYet). Until they are written, it writes files that say so, and the check shows
 * "not written yet: <function>" where it expected your answer.
 *
 * The conventions the course's official cases settle (the kit's README lists them all): you are
 * the max player; pits are tried left to right (B2, B3, ... for player 1, A2, A3, ... for player 2),
 * ties go to the first; a move ending in your own mancala is a free turn and keeps the depth (still
 * expanded at the cut-off); a position is worth your mancala minus the opponent's.
 */
#include <climits>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace std;

const long long INFINITY_VALUE = LLONG_MAX, MINUS_INFINITY_VALUE = LLONG_MIN;

/* What a function of this starter throws until you write it. */
struct NotWrittenYet : runtime_error {
    explicit NotWrittenYet(const string& function) : runtime_error(function) {}
};

/* The input's board: top is player 2's row, bottom player 1's, each left to right as the figure shows them. */
struct Board {
    vector<int> top, bottom;
    int topStore, bottomStore;

    /* next_state.txt's four lines. */
    vector<string> lines() const {
        vector<string> out;
        out.push_back(row(top));
        out.push_back(row(bottom));
        out.push_back(to_string(topStore));
        out.push_back(to_string(bottomStore));
        return out;
    }

    static string row(const vector<int>& pits) {
        string s;
        for (size_t k = 0; k < pits.size(); k++) s += (k == 0 ? "" : " ") + to_string(pits[k]);
        return s;
    }
};

/* The course runs `./mancala -i input.txt`: the path after -i; without it, input.txt. */
string inputPath(int argc, char** argv) {
    for (int k = 1; k + 1 < argc; k++)
        if (string(argv[k]) == "-i") return argv[k + 1];
    return "input.txt";
}

/* A value as the traverse log prints it: Infinity, -Infinity, or a whole number. */
string valueText(long long v) {
    return v == INFINITY_VALUE ? "Infinity" : v == MINUS_INFINITY_VALUE ? "-Infinity" : to_string(v);
}

/* Appends one line of MiniMax's traverse log: Node,Depth,Value. */
void logLine(vector<string>& log, const string& name, int depth, long long value) {
    log.push_back(name + "," + to_string(depth) + "," + valueText(value));
}

/* Appends one line of Alpha-Beta's traverse log: Node,Depth,Value,Alpha,Beta. */
void logLine(vector<string>& log, const string& name, int depth, long long value, long long alpha, long long beta) {
    log.push_back(name + "," + to_string(depth) + "," + valueText(value) + "," + valueText(alpha) + "," + valueText(beta));
}

/*
 * Sows pit `pit` (0 = the leftmost) of `player` (1 or 2) and returns the new board; sets `again`
 * when `player` moves again. Counterclockwise, into your own mancala but not the opponent's; the
 * last stone in an empty pit of your own row captures it and the opposite pit (even an empty one);
 * when either row is empty the game is over and each row goes to its owner's mancala.
 */
Board play(const Board& board, int player, int pit, bool& again) {
    throw NotWrittenYet("play(board, player, pit, again): sowing a pit, captures, free turns and the end of the game");
}

/* Task 1: the board after the best move at cut-off depth 1 (and your free turns after it). */
Board greedy(const Board& board, int player) {
    throw NotWrittenYet("greedy(board, player): task 1, the next state after the best move at depth 1");
}

/* Task 2: the board after MiniMax's move; adds the traverse log's lines to `log` with logLine. */
Board minimax(const Board& board, int player, int depth, vector<string>& log) {
    throw NotWrittenYet("minimax(board, player, depth, log): task 2, the next state and the traverse log");
}

/* Task 3: as minimax, pruning; each log line also has alpha and beta. */
Board alphabeta(const Board& board, int player, int depth, vector<string>& log) {
    throw NotWrittenYet("alphabeta(board, player, depth, log): task 3, the next state and the traverse log with alpha and beta");
}

void writeLines(const string& name, const vector<string>& lines) {
    ofstream out(name.c_str());
    for (size_t k = 0; k < lines.size(); k++) out << lines[k] << "\n";
}

vector<int> ints(const string& line) {
    vector<int> out;
    istringstream in(line);
    for (int x; in >> x;) out.push_back(x);
    return out;
}

int main(int argc, char** argv) {
    ifstream in(inputPath(argc, argv).c_str());
    vector<string> lines;
    for (string line; getline(in, line);)
        if (line.find_first_not_of(" \t\r") != string::npos) lines.push_back(line);
    int task = stoi(lines.at(0)), player = stoi(lines.at(1)), depth = stoi(lines.at(2));
    Board board = {ints(lines.at(3)), ints(lines.at(4)), stoi(lines.at(5)), stoi(lines.at(6))};
    string header = task == 2 ? "Node,Depth,Value" : task == 3 ? "Node,Depth,Value,Alpha,Beta" : "";
    vector<string> log;
    if (!header.empty()) log.push_back(header);
    Board after;
    try {
        // Task 4 (the competition) is not graded: greedy plays it.
        after = task == 2 ? minimax(board, player, depth, log) : task == 3 ? alphabeta(board, player, depth, log) : greedy(board, player);
    } catch (const NotWrittenYet& e) {
        // The files say what is missing, so the check shows it where it expected your answer.
        string what = string("not written yet: ") + e.what();
        cerr << what << endl;
        writeLines("next_state.txt", vector<string>(1, what));
        if (!header.empty()) writeLines("traverse_log.txt", {header, what});
        return 0;
    }
    writeLines("next_state.txt", after.lines());
    if (!header.empty()) writeLines("traverse_log.txt", log);
    return 0;
}

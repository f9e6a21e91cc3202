#!/usr/bin/env python3
"""Checks the size rules of docs/ARCHITECTURE.md: no Swift file over 500 lines, no function
(func, init, deinit, subscript, computed accessor body of a func) over 80 lines.

    scripts/check-size.py [DIR ...]        (default: Sources)
    scripts/check-size.py --report DIR     (every function over 60 lines, longest first; exit 0)

A function's length is from the line of its `func`/`init` keyword to the line of its closing
brace. String literals (including multi-line and raw ones) and comments are skipped when the
braces are matched. Exits 1 listing every file and function over the limits.
"""
import os, re, sys

FILE_LIMIT, FUNC_LIMIT = 500, 80
DECL = re.compile(r"(?<![\w.])(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")


def blank_strings_and_comments(text):
    """The text with string literal contents and comments replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j): depth += 1; j += 2
                elif text.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r'#*', text[i:]).group(0))
            start = i + hashes
            multi = text.startswith('"""', start)
            quote = '"""' if multi else '"'
            close = quote + "#" * hashes
            j = start + len(quote)
            interp_depth = 0
            while j < n:
                if hashes == 0 and text[j] == "\\":
                    if text.startswith("\\(", j):
                        # Skip an interpolation with its own parentheses.
                        depth, j = 1, j + 2
                        while j < n and depth:
                            if text[j] == "(": depth += 1
                            elif text[j] == ")": depth -= 1
                            j += 1
                        continue
                    j += 2; continue
                if text.startswith(close, j):
                    j += len(close); break
                if not multi and text[j] == "\n":
                    break
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(path):
    text = blank_strings_and_comments(open(path, encoding="utf-8").read())
    lines = text.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos); pos += len(line) + 1
    def line_of(index):
        lo, hi = 0, len(offsets) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if offsets[mid] <= index: lo = mid
            else: hi = mid - 1
        return lo + 1
    for m in DECL.finditer(text):
        # The body: the first `{` after the signature at paren depth 0; a `;`/newline-less
        # protocol requirement has none before the next declaration.
        j, depth = m.end(), 0
        while j < len(text):
            ch = text[j]
            if ch in "([": depth += 1
            elif ch in ")]": depth -= 1
            elif ch == "{" and depth <= 0: break
            elif ch == "}" and depth <= 0: j = -1; break
            elif DECL.match(text, j) and depth <= 0 and j > m.end(): j = -1; break
            j += 1
        if j < 0 or j >= len(text):
            continue
        k, braces = j, 0
        while k < len(text):
            if text[k] == "{": braces += 1
            elif text[k] == "}":
                braces -= 1
                if braces == 0: break
            k += 1
        first, last = line_of(m.start()), line_of(k)
        name = m.group(1).split("(")[0].strip()
        yield name, first, last - first + 1


def main(argv):
    report = "--report" in argv
    dirs = [a for a in argv if not a.startswith("--")] or ["Sources"]
    problems, long_funcs, files, funcs = [], [], 0, 0
    for d in dirs:
        for directory, _, names in os.walk(d):
            for f in sorted(names):
                if not f.endswith(".swift"): continue
                path = os.path.join(directory, f)
                files += 1
                count = sum(1 for _ in open(path, encoding="utf-8"))
                if count > FILE_LIMIT:
                    problems.append(f"{path}: {count} lines (limit {FILE_LIMIT})")
                for name, line, length in functions(path):
                    funcs += 1
                    if length > 60: long_funcs.append((length, f"{path}:{line} {name}"))
                    if length > FUNC_LIMIT:
                        problems.append(f"{path}:{line}: {name} is {length} lines (limit {FUNC_LIMIT})")
    if report:
        for length, where in sorted(long_funcs, reverse=True):
            print(f"{length:4d} {where}")
        print(f"{files} files, {funcs} functions; {sum(1 for l, _ in long_funcs if l > 80)} over 80 lines, "
              f"{len(long_funcs)} over 60, {sum(1 for l, _ in long_funcs if l > 100)} over 100")
        return 0
    for p in problems: print(p)
    if problems:
        print(f"check-size: {len(problems)} over the limits", file=sys.stderr)
        return 1
    print(f"check-size: {files} files, {funcs} functions within {FILE_LIMIT} and {FUNC_LIMIT} lines")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

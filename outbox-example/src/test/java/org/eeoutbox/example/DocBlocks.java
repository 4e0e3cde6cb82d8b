package org.eeoutbox.example;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads what the documentation shows and what it is taken from, so that a test can require
 * them to be the same text: the fenced block after a marker comment in a Markdown file, and the
 * lines between two marker lines of a source file. Paths are relative to the repository root.
 */
final class DocBlocks {

    static final Path ROOT = Path.of("..");

    private DocBlocks() {
    }

    /** The lines of {@code file} strictly between the lines {@code begin} and {@code end}. */
    static String between(String file, String begin, String end) throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve(file));
        int first = lines.indexOf(begin);
        int last = lines.indexOf(end);
        assertTrue(first >= 0 && last > first, file + " lost its marker lines '" + begin + "' and '" + end + "'");
        return String.join("\n", lines.subList(first + 1, last));
    }

    /** The lines of the fenced block that follows the line {@code marker} in {@code markdown}. */
    static List<String> fencedBlockAfter(String markdown, String marker) throws IOException {
        List<String> doc = Files.readAllLines(ROOT.resolve(markdown));
        int line = doc.indexOf(marker);
        if (line < 0) {
            fail(markdown + " has no line " + marker);
        }
        int open = line + 1;
        while (open < doc.size() && doc.get(open).isBlank()) {
            open++;
        }
        if (open == doc.size() || !doc.get(open).startsWith("```")) {
            fail(markdown + ": no fenced block follows " + marker);
        }
        int close = open + 1;
        while (close < doc.size() && !doc.get(close).equals("```")) {
            close++;
        }
        if (close == doc.size()) {
            fail(markdown + ": the fenced block after " + marker + " is not closed");
        }
        return doc.subList(open + 1, close);
    }
}

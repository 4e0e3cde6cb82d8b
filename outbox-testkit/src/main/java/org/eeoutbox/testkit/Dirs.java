package org.eeoutbox.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Deleting directory trees (work directories of test servers, the demo and the reliability rig). */
public final class Dirs {

    private static final System.Logger LOG = System.getLogger(Dirs.class.getName());

    private Dirs() {
    }

    /**
     * Deletes {@code root} and everything below it, without following symbolic links; does nothing
     * if it does not exist. A file that disappears meanwhile is no error.
     *
     * @throws UncheckedIOException if something cannot be deleted (what could be is gone)
     */
    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + root, e);
        }
    }

    /**
     * Deletes like {@link #deleteRecursively(Path)}, but a failure is logged as a WARNING instead of
     * thrown: for clean-up steps that must not hide the test's own outcome.
     *
     * @return whether {@code root} is gone
     */
    public static boolean deleteRecursivelyQuietly(Path root) {
        try {
            deleteRecursively(root);
            return true;
        } catch (UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot delete " + root, e);
            return false;
        }
    }
}

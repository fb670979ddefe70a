package io.rewind.runtime.rank;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which classes a rank defines itself and from where: the API and its binding per rank from the
 * runtime's class path even when the job's class path holds other bytes for them (the rewind-api
 * jar's signatures), a program's own classes from the job's class path first.
 */
class RankClassLoaderTest {
    @TempDir
    Path jobClassPath;

    private RankClassLoader loader() throws Exception {
        return new RankClassLoader(
                new RankContext(null, 0, 1),
                new URL[] {jobClassPath.toUri().toURL()},
                getClass().getClassLoader());
    }

    /** Puts bytes that are no class file at all where the job's class path would hold {@code name}. */
    private void shadow(String name) throws Exception {
        Path f = jobClassPath.resolve(name.replace('.', '/') + ".class");
        Files.createDirectories(f.getParent());
        Files.write(f, new byte[] {1, 2, 3, 4});
    }

    @Test
    void theApiAndItsBindingArePerRankFromTheRuntimeEvenWhenTheJobClassPathHasThem() throws Exception {
        shadow("io.rewind.api.Checkpointer");
        shadow("io.rewind.binding.RuntimeBinding");
        RankClassLoader a = loader();
        RankClassLoader b = loader();
        Class<?> cp = a.loadClass("io.rewind.api.Checkpointer");
        assertSame(a, cp.getClassLoader());
        assertNotSame(cp, b.loadClass("io.rewind.api.Checkpointer"));
        assertSame(a, a.loadClass("io.rewind.binding.RuntimeBinding").getClassLoader());
        // The runtime itself stays shared.
        assertSame(RankContext.class, a.loadClass(RankContext.class.getName()));
    }

    @Test
    void aProgramsOwnClassesComeFromTheJobClassPathFirst() throws Exception {
        shadow("example.Main");
        // The parent has no such class: anything but ClassNotFoundException means the job's bytes were read.
        Throwable e = assertThrows(Throwable.class, () -> loader().loadClass("example.Main"));
        assertFalse(e instanceof ClassNotFoundException, e.toString());
    }
}

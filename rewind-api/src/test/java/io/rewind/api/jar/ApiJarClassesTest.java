package io.rewind.api.jar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The classes of the rewind-api jar, loaded on the JDK that runs Maven (17 or newer): every one is a
 * class file of version 61 in package mpi, io.rewind.api or its spi, the public API is there and the
 * runtime's own classes are not.
 */
class ApiJarClassesTest {
    /** The jar's classes: the module's classes folder, where the build wrote them. */
    static Path classes() throws URISyntaxException {
        return Path.of(mpi.MPI
                .class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    static List<Path> classFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".class")).sorted().toList();
        }
    }

    static int majorVersion(Path classFile) throws IOException {
        try (InputStream in = Files.newInputStream(classFile)) {
            byte[] head = in.readNBytes(8);
            return ((head[6] & 0xff) << 8) | (head[7] & 0xff);
        }
    }

    @Test
    void everyClassIsVersion61InTheApiPackagesAndLoadsOnThisJdk() throws Exception {
        Path root = classes();
        List<Path> files = classFiles(root);
        TreeMap<String, Integer> versions = new TreeMap<>();
        for (Path f : files) {
            String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
            versions.put(name, majorVersion(f));
            Class.forName(name, false, getClass().getClassLoader());
        }
        assertEquals(Set.of(61), Set.copyOf(versions.values()), versions.toString());
        Set<String> packages = versions.keySet().stream()
                .map(n -> n.substring(0, n.lastIndexOf('.')))
                .collect(Collectors.toSet());
        assertEquals(Set.of("mpi", "io.rewind.api", "io.rewind.api.spi"), packages);
    }

    @Test
    void thePublicApiIsThereAndTheRuntimesPackagePrivateClassesAreNot() throws Exception {
        Path root = classes();
        for (String c : List.of(
                "mpi/MPI",
                "mpi/Comm",
                "mpi/Intracomm",
                "mpi/Request",
                "mpi/Status",
                "mpi/Datatype",
                "mpi/Op",
                "mpi/MPIException",
                "mpi/CartComm",
                "mpi/Struct$Data",
                "io/rewind/api/Checkpointer",
                "io/rewind/api/Patterns",
                "io/rewind/api/StateSerializer")) {
            assertTrue(Files.exists(root.resolve(c + ".class")), c);
        }
        // Package-private classes of the runtime's mpi (some name engine types) are not signatures.
        for (String c : List.of("mpi/Memory", "mpi/Region", "mpi/Op$UserReduction", "mpi/CartTopology")) {
            assertFalse(Files.exists(root.resolve(c + ".class")), c);
        }
        Method send =
                mpi.Comm.class.getMethod("send", Object.class, int.class, mpi.Datatype.class, int.class, int.class);
        assertTrue(Modifier.isPublic(send.getModifiers()));
        assertEquals(List.of(mpi.MPIException.class), List.of(send.getExceptionTypes()));
    }

    @Test
    void everyMpiMethodSaysToRunUnderRewind() {
        UnsupportedOperationException e = org.junit.jupiter.api.Assertions.assertThrows(
                UnsupportedOperationException.class, () -> mpi.MPI.Init(new String[0]));
        assertTrue(e.getMessage().contains("run the program under Rewind"), e.getMessage());
    }
}

package mpi;

import java.io.IOException;
import java.lang.reflect.Member;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Every public class of a package {@code mpi} and the public and protected members it declares, as
 * {@link ApiSignature}s, sorted by class and key so that the listing is stable.
 *
 * <p>{@link #main} writes the lines of {@code ompi-java-api.txt} from Open MPI's {@code mpi.jar} (or a
 * directory of its compiled classes): {@code java -cp rewind-mpi/target/test-classes mpi.ApiListing
 * mpi.jar}. The classes are loaded without being initialised, so Open MPI's native library is not needed.
 */
final class ApiListing {

    private ApiListing() {}

    public static void main(String[] args) throws Exception {
        Path classes = Path.of(args[0]);
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            for (ApiSignature s : declared(loader, classNames(classes))) {
                System.out.println(s.line());
            }
        }
    }

    /** The binary names ({@code mpi.Int2$Data}) of the classes of package {@code mpi} in a jar or directory. */
    static List<String> classNames(Path jarOrDirectory) throws IOException {
        Stream<String> paths;
        if (Files.isDirectory(jarOrDirectory)) {
            try (Stream<Path> files = Files.list(jarOrDirectory.resolve("mpi"))) {
                paths = files.map(f -> "mpi/" + f.getFileName()).toList().stream();
            }
        } else {
            try (JarFile jar = new JarFile(jarOrDirectory.toFile())) {
                paths = jar.stream().map(e -> e.getName()).toList().stream();
            }
        }
        // mpi.UlfmCalls is the facade's side of io.rewind.api.Ulfm, not API (the API jar leaves it out).
        return paths.filter(p -> p.startsWith("mpi/") && p.endsWith(".class") && p.indexOf('/', 4) < 0)
                .filter(p -> !p.equals("mpi/UlfmCalls.class"))
                .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
                .sorted()
                .toList();
    }

    /** The signatures of the public classes among {@code classNames} and of the members they declare. */
    static List<ApiSignature> declared(ClassLoader loader, List<String> classNames) throws ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : classNames) {
            Class<?> c = Class.forName(name, false, loader);
            if (isApiClass(c)) {
                classes.add(c);
            }
        }
        classes.sort(Comparator.comparing(ApiSignature::ownerName));
        List<ApiSignature> out = new ArrayList<>();
        for (Class<?> c : classes) {
            out.add(ApiSignature.of(c));
            List<Member> members = new ArrayList<>();
            members.addAll(List.of(c.getDeclaredFields()));
            members.addAll(List.of(c.getDeclaredConstructors()));
            members.addAll(List.of(c.getDeclaredMethods()));
            members.stream()
                    .filter(ApiSignature::visibleMember)
                    .map(m -> ApiSignature.of(c, m))
                    .sorted(Comparator.comparing(ApiSignature::key))
                    .forEach(out::add);
        }
        return out;
    }

    /** A class a program can name: public, and not local or anonymous; a nested one inside such a class. */
    static boolean isApiClass(Class<?> c) {
        if (c.isAnonymousClass() || c.isLocalClass() || !java.lang.reflect.Modifier.isPublic(c.getModifiers())) {
            return false;
        }
        return c.getEnclosingClass() == null || isApiClass(c.getEnclosingClass());
    }
}

package io.rewind.runtime.rank;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class loader of one rank. The application's classes and the {@code mpi} facade are defined
 * afresh in every rank, so their static fields are per rank, as they would be in separate
 * processes; the runtime itself (engine, protocols, transports) and third-party infrastructure are
 * shared through the parent.
 *
 * <p>Class bytes come from the job's class path first, then from the parent's resources, so a test
 * can run programs that sit on its own class path. Rank programs must therefore not live in the
 * runtime's own packages (see {@link #SHARED_PREFIXES}). The per-rank part of the runtime ({@link
 * #RUNTIME_PER_RANK_PREFIXES}: the facade, the API and its binding) comes from the parent first: a job
 * class path that holds the {@code rewind-api} jar, whose {@code mpi} classes are signatures only,
 * must not replace the runtime's own.
 */
public final class RankClassLoader extends ClassLoader {
    /** Packages loaded once for the whole JVM. Everything else is per rank. */
    static final List<String> SHARED_PREFIXES = List.of(
            "java.",
            "javax.",
            "jdk.",
            "sun.",
            "com.sun.",
            "io.rewind.engine.",
            "io.rewind.transport.",
            "io.rewind.runtime.",
            "io.rewind.ft.",
            "io.rewind.checkpoint.",
            "io.rewind.util.",
            "io.rewind.tools.",
            "io.rewind.cli.",
            "io.rewind.bench.",
            "org.junit.",
            "org.opentest4j.",
            "org.apiguardian.",
            "net.jqwik.",
            "picocli.",
            "com.fasterxml.",
            "org.HdrHistogram.",
            "org.openjdk.jmh.",
            "io.netty.");

    /**
     * Packages defined per rank whose classes are the runtime's: the {@code mpi} facade, {@code
     * io.rewind.api} and the runtime's binding of it. Their bytes come from the parent (the runtime's
     * class path) before the job's.
     */
    static final List<String> RUNTIME_PER_RANK_PREFIXES = List.of("mpi.", "io.rewind.api.", "io.rewind.binding.");

    static {
        registerAsParallelCapable();
    }

    /** Bytes of a class the parent defines (none of the job's own). */
    private static final byte[] FROM_PARENT = new byte[0];

    private final RankContext context;
    private final URLClassLoader jobClassPath;
    /**
     * The bytes each per-rank class is defined from, as read and rewritten by the first rank of the
     * job that loaded it: every rank defines the same bytes, and reading a jar entry and rewriting its
     * exits once per rank was a third of the start of a thousand ranks.
     */
    private final Map<String, byte[]> jobClassBytes;

    /** A loader whose classes' {@code System.exit} calls go to {@link RankExit}. */
    public RankClassLoader(RankContext context, URL[] classPath, ClassLoader parent) {
        this(context, classPath, parent, new ConcurrentHashMap<>());
    }

    /**
     * As above, sharing the bytes of the classes it defines with the other ranks of the job ({@code
     * jobClassBytes}, one map for every loader of the job: the same class path and parent).
     */
    public RankClassLoader(
            RankContext context, URL[] classPath, ClassLoader parent, Map<String, byte[]> jobClassBytes) {
        super("rank-" + context.rank(), Objects.requireNonNull(parent));
        this.context = context;
        this.jobClassPath = new URLClassLoader(classPath, null);
        this.jobClassBytes = Objects.requireNonNull(jobClassBytes);
    }

    /** The rank this loader belongs to. */
    public RankContext context() {
        return context;
    }

    static boolean isShared(String className) {
        for (String p : SHARED_PREFIXES) {
            if (className.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                if (isShared(name)) {
                    c = getParent().loadClass(name);
                } else {
                    byte[] bytes = jobClassBytes.computeIfAbsent(name, this::readAndRedirect);
                    if (bytes != FROM_PARENT) {
                        c = defineClass(name, bytes, 0, bytes.length);
                    } else {
                        c = getParent().loadClass(name);
                    }
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private byte[] readAndRedirect(String name) {
        byte[] bytes = classBytes(name);
        return bytes == null ? FROM_PARENT : ExitCalls.redirect(bytes, this);
    }

    static boolean isRuntimePerRank(String className) {
        for (String p : RUNTIME_PER_RANK_PREFIXES) {
            if (className.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private byte[] classBytes(String name) {
        String resource = name.replace('.', '/') + ".class";
        URL url;
        if (isRuntimePerRank(name)) {
            url = getParent().getResource(resource);
            if (url == null) {
                url = jobClassPath.findResource(resource);
            }
        } else {
            url = jobClassPath.findResource(resource);
            if (url == null) {
                url = getParent().getResource(resource);
            }
        }
        if (url == null || "jrt".equals(url.getProtocol())) {
            return null;
        }
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read class " + name + " from " + url, e);
        }
    }

    @Override
    public URL getResource(String name) {
        URL url = jobClassPath.findResource(name);
        return url != null ? url : getParent().getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> all = new ArrayList<>(Collections.list(jobClassPath.findResources(name)));
        all.addAll(Collections.list(getParent().getResources(name)));
        return Collections.enumeration(all);
    }

    /** Releases the jar files of the job class path. */
    void close() {
        try {
            jobClassPath.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

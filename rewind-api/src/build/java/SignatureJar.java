import com.sun.source.util.JavacTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Attribute;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.RecordComponentVisitor;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.signature.SignatureReader;
import org.objectweb.asm.signature.SignatureVisitor;

/**
 * Builds the classes of the rewind-api jar (run by the module's build, on the JDK that runs Maven,
 * 17 or newer, with ASM on the class path):
 *
 * <pre>
 * java -cp asm.jar SignatureJar.java --mpi CLASSES --api CLASSES --out DIR
 * </pre>
 *
 * <p>From rewind-mpi's compiled classes (a folder or a jar) it writes the signatures of package
 * {@code mpi}: the public and protected classes and members, each method's body a throw of
 * UnsupportedOperationException, as class files of version 61 (Java 17), so that programs compile
 * against the API with any JDK from 17 on. From rewind-api-core's classes it copies {@code
 * io.rewind.api}, which is compiled for Java 17 already. It fails (exit status 1, every problem on a
 * line of its own) if a kept signature names a type that is neither in the Java 17 API (as {@code javac
 * --release 17} sees it) nor one of the kept classes, or if an API class is newer than version 61.
 */
public final class SignatureJar {
    static final int VERSION = Opcodes.V17;
    static final String MESSAGE = "this is the compile-only rewind-api jar: run the program under Rewind"
            + " (rewind run, with Rewind's runtime on the class path instead of rewind-api) or Open MPI";

    /** Public classes of the facade that are not API (see {@code mpi.UlfmCalls}). */
    static final Set<String> RUNTIME_ONLY = Set.of("mpi/UlfmCalls");

    public static void main(String[] args) throws IOException {
        Map<String, String> opts = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i], args[i + 1]);
        }
        if (args.length != 6 || !opts.keySet().equals(Set.of("--mpi", "--api", "--out"))) {
            System.err.println("usage: SignatureJar --mpi CLASSES --api CLASSES --out DIR");
            System.exit(2);
        }
        Map<String, byte[]> mpi = read(Path.of(opts.get("--mpi")), "mpi/");
        // The bridge io.rewind.api.Ulfm calls into the facade through: runtime only, not API.
        mpi.keySet().removeAll(RUNTIME_ONLY);
        // API classes that name mpi types (io.rewind.api.Ulfm) live beside the facade: as signatures too.
        mpi.putAll(read(Path.of(opts.get("--mpi")), "io/rewind/api/"));
        Map<String, byte[]> api = read(Path.of(opts.get("--api")), "io/rewind/api/");
        Path out = Path.of(opts.get("--out"));
        List<String> problems = new ArrayList<>();
        if (!mpi.containsKey("mpi/MPI")) {
            problems.add("no class mpi.MPI in " + opts.get("--mpi"));
        }
        if (!api.containsKey("io/rewind/api/Checkpointer")) {
            problems.add("no class io.rewind.api.Checkpointer in " + opts.get("--api"));
        }

        Set<String> kept = keptClasses(mpi);
        Set<String> publicApi = new TreeSet<>();
        for (Map.Entry<String, byte[]> e : api.entrySet()) {
            int version = ((e.getValue()[6] & 0xff) << 8) | (e.getValue()[7] & 0xff);
            if (version > VERSION) {
                problems.add(e.getKey() + ".class has version " + version + ", newer than " + VERSION);
            }
            if ((new ClassReader(e.getValue()).getAccess() & Opcodes.ACC_PUBLIC) != 0) {
                publicApi.add(e.getKey());
            }
        }
        Map<String, byte[]> stubs = new TreeMap<>();
        Map<String, Set<String>> references = new TreeMap<>();
        for (String name : kept) {
            Set<String> refs = new TreeSet<>();
            stubs.put(name, stub(mpi.get(name), kept, refs));
            references.put(name, refs);
        }
        Java17Api jdk = new Java17Api();
        for (Map.Entry<String, Set<String>> e : references.entrySet()) {
            for (String ref : e.getValue()) {
                boolean known = ref.startsWith("mpi/")
                        ? kept.contains(ref)
                        : ref.startsWith("io/rewind/api/")
                                ? publicApi.contains(ref) || kept.contains(ref)
                                : jdk.has(ref);
                if (!known) {
                    problems.add(e.getKey().replace('/', '.') + " names " + ref.replace('/', '.')
                            + ", which is neither in the Java 17 API nor a public class of mpi or io.rewind.api");
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("rewind-api: " + p));
            System.exit(1);
        }
        clean(out.resolve("mpi"));
        clean(out.resolve("io/rewind/api"));
        write(out, stubs);
        write(out, api);
        System.out.println("rewind-api: " + stubs.size() + " mpi signature classes and " + api.size()
                + " io.rewind.api classes, class file version " + VERSION);
    }

    /** The classes under {@code prefix} (internal names, no .class) of a folder or a jar. */
    static Map<String, byte[]> read(Path classes, String prefix) throws IOException {
        Map<String, byte[]> found = new TreeMap<>();
        if (Files.isDirectory(classes)) {
            collect(classes, prefix, found);
        } else if (Files.isRegularFile(classes)) {
            try (FileSystem jar = FileSystems.newFileSystem(classes)) {
                collect(jar.getPath("/"), prefix, found);
            }
        } else {
            throw new IOException("no such folder or jar: " + classes);
        }
        return found;
    }

    private static void collect(Path root, String prefix, Map<String, byte[]> found) throws IOException {
        Path dir = root.resolve(prefix);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String rel = root.relativize(f).toString().replace('\\', '/');
                if (rel.endsWith(".class") && !rel.endsWith("package-info.class")) {
                    found.put(rel.substring(0, rel.length() - ".class".length()), Files.readAllBytes(f));
                }
            }
        }
    }

    /**
     * The public and protected classes: top-level classes that are public, nested ones that are
     * public or protected in their outer class's InnerClasses entry and whose outer class is kept.
     */
    static Set<String> keptClasses(Map<String, byte[]> classes) {
        Map<String, Integer> nestedAccess = new TreeMap<>();
        Map<String, String> outerOf = new TreeMap<>();
        for (byte[] bytes : classes.values()) {
            new ClassReader(bytes)
                    .accept(
                            new ClassVisitor(Opcodes.ASM9) {
                                @Override
                                public void visitInnerClass(String name, String outer, String inner, int access) {
                                    if (outer != null && classes.containsKey(name)) {
                                        nestedAccess.put(name, access);
                                        outerOf.put(name, outer);
                                    }
                                }
                            },
                            ClassReader.SKIP_CODE);
        }
        Set<String> kept = new TreeSet<>();
        for (String name : classes.keySet()) {
            if (isKept(name, classes, nestedAccess, outerOf)) {
                kept.add(name);
            }
        }
        return kept;
    }

    private static boolean isKept(
            String name, Map<String, byte[]> classes, Map<String, Integer> nestedAccess, Map<String, String> outerOf) {
        ClassReader r = new ClassReader(classes.get(name));
        if ((r.getAccess() & Opcodes.ACC_SYNTHETIC) != 0) {
            return false;
        }
        if (!outerOf.containsKey(name)) {
            // Top level, or local and anonymous classes (no outer class in InnerClasses): only public top-level.
            return (r.getAccess() & Opcodes.ACC_PUBLIC) != 0 && !name.contains("$");
        }
        return visible(nestedAccess.get(name)) && isKept(outerOf.get(name), classes, nestedAccess, outerOf);
    }

    static boolean visible(int access) {
        return (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) != 0 && (access & Opcodes.ACC_SYNTHETIC) == 0;
    }

    static boolean keptMember(int access) {
        return (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) != 0
                && ((access & Opcodes.ACC_SYNTHETIC) == 0 || (access & Opcodes.ACC_BRIDGE) != 0);
    }

    /** The signature class of {@code bytes}; the types it names go to {@code refs}. */
    static byte[] stub(byte[] bytes, Set<String> kept, Set<String> refs) {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        new ClassReader(bytes).accept(new StubClass(w, kept, refs), ClassReader.SKIP_FRAMES);
        return w.toByteArray();
    }

    /** Keeps what a compiler needs of a class: its declaration, public and protected members, annotations. */
    static final class StubClass extends ClassVisitor {
        private final Set<String> kept;
        private final Set<String> refs;
        private String name;

        StubClass(ClassVisitor next, Set<String> kept, Set<String> refs) {
            super(Opcodes.ASM9, next);
            this.kept = kept;
            this.refs = refs;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] ifs) {
            this.name = name;
            if (superName != null) {
                refs.add(superName);
            }
            if (ifs != null) {
                refs.addAll(List.of(ifs));
            }
            signature(signature, refs);
            super.visit(VERSION, access, name, signature, superName, ifs);
        }

        @Override
        public void visitSource(String source, String debug) {}

        @Override
        public ModuleVisitor visitModule(String name, int access, String version) {
            return null;
        }

        @Override
        public void visitNestHost(String nestHost) {}

        @Override
        public void visitNestMember(String nestMember) {}

        @Override
        public void visitOuterClass(String owner, String name, String descriptor) {}

        @Override
        public void visitPermittedSubclass(String subclass) {
            // A sealed class keeps its permitted subclasses: each must be a kept class (checked with the refs).
            refs.add(subclass);
            super.visitPermittedSubclass(subclass);
        }

        @Override
        public void visitInnerClass(String inner, String outer, String simple, int access) {
            // Entries of the nested classes that are kept, and of other packages' (the JDK's) nested
            // classes the signatures name; not those of the classes left out.
            if (kept.contains(inner) || !inner.startsWith("mpi/")) {
                super.visitInnerClass(inner, outer, simple, access);
            }
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            refs.add(Type.getType(descriptor).getInternalName());
            return super.visitAnnotation(descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int ref, TypePath path, String descriptor, boolean visible) {
            return null;
        }

        @Override
        public void visitAttribute(Attribute attribute) {}

        @Override
        public RecordComponentVisitor visitRecordComponent(String name, String descriptor, String signature) {
            type(Type.getType(descriptor), refs);
            signature(signature, refs);
            return super.visitRecordComponent(name, descriptor, signature);
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            if (!keptMember(access)) {
                return null;
            }
            type(Type.getType(descriptor), refs);
            signature(signature, refs);
            return super.visitField(access, name, descriptor, signature, value);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] ex) {
            if (!keptMember(access) || name.equals("<clinit>")) {
                return null;
            }
            type(Type.getType(descriptor), refs);
            signature(signature, refs);
            if (ex != null) {
                refs.addAll(List.of(ex));
            }
            boolean hasBody = (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0
                    || (access & Opcodes.ACC_NATIVE) != 0;
            int stubAccess = access & ~Opcodes.ACC_NATIVE;
            MethodVisitor mv = super.visitMethod(stubAccess, name, descriptor, signature, ex);
            return new StubMethod(mv, hasBody && (access & Opcodes.ACC_ABSTRACT) == 0, access, descriptor, refs);
        }
    }

    /**
     * A method's annotations and parameter names, and a body that throws: the original instructions
     * are dropped, the names of the parameters are taken from its local variable table.
     */
    static final class StubMethod extends MethodVisitor {
        private final boolean hasBody;
        private final Set<String> refs;
        private final String[] parameterNames;
        private final int firstParameterSlot;
        private final int[] slotToParameter;

        StubMethod(MethodVisitor next, boolean hasBody, int access, String descriptor, Set<String> refs) {
            super(Opcodes.ASM9, next);
            this.hasBody = hasBody;
            this.refs = refs;
            Type[] params = Type.getArgumentTypes(descriptor);
            this.parameterNames = new String[params.length];
            this.firstParameterSlot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
            int slots = firstParameterSlot;
            for (Type p : params) {
                slots += p.getSize();
            }
            this.slotToParameter = new int[slots];
            Arrays.fill(slotToParameter, -1);
            int slot = firstParameterSlot;
            for (int i = 0; i < params.length; i++) {
                slotToParameter[slot] = i;
                slot += params[i].getSize();
            }
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            refs.add(Type.getType(descriptor).getInternalName());
            return super.visitAnnotation(descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
            refs.add(Type.getType(descriptor).getInternalName());
            return super.visitParameterAnnotation(parameter, descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int ref, TypePath path, String descriptor, boolean visible) {
            return null;
        }

        @Override
        public void visitAttribute(Attribute attribute) {}

        @Override
        public void visitCode() {}

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {}

        @Override
        public void visitInsn(int opcode) {}

        @Override
        public void visitIntInsn(int opcode, int operand) {}

        @Override
        public void visitVarInsn(int opcode, int varIndex) {}

        @Override
        public void visitTypeInsn(int opcode, String type) {}

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {}

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {}

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... bsmArgs) {}

        @Override
        public void visitJumpInsn(int opcode, Label label) {}

        @Override
        public void visitLabel(Label label) {}

        @Override
        public void visitLdcInsn(Object value) {}

        @Override
        public void visitIincInsn(int varIndex, int increment) {}

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {}

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {}

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {}

        @Override
        public AnnotationVisitor visitInsnAnnotation(int ref, TypePath path, String descriptor, boolean visible) {
            return null;
        }

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {}

        @Override
        public AnnotationVisitor visitTryCatchAnnotation(int ref, TypePath path, String descriptor, boolean visible) {
            return null;
        }

        @Override
        public void visitLocalVariable(
                String name, String descriptor, String signature, Label start, Label end, int index) {
            if (index < slotToParameter.length && slotToParameter[index] >= 0) {
                parameterNames[slotToParameter[index]] = name;
            }
        }

        @Override
        public AnnotationVisitor visitLocalVariableAnnotation(
                int ref, TypePath path, Label[] start, Label[] end, int[] index, String descriptor, boolean visible) {
            return null;
        }

        @Override
        public void visitLineNumber(int line, Label start) {}

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {}

        @Override
        public void visitEnd() {
            if (hasBody) {
                if (Arrays.stream(parameterNames).allMatch(n -> n != null)) {
                    for (String n : parameterNames) {
                        super.visitParameter(n, 0);
                    }
                }
                super.visitCode();
                super.visitTypeInsn(Opcodes.NEW, "java/lang/UnsupportedOperationException");
                super.visitInsn(Opcodes.DUP);
                super.visitLdcInsn(MESSAGE);
                super.visitMethodInsn(
                        Opcodes.INVOKESPECIAL,
                        "java/lang/UnsupportedOperationException",
                        "<init>",
                        "(Ljava/lang/String;)V",
                        false);
                super.visitInsn(Opcodes.ATHROW);
                super.visitMaxs(0, 0);
            }
            super.visitEnd();
        }
    }

    /** The classes {@code t} names (an array's element type; none for primitives). */
    static void type(Type t, Set<String> refs) {
        switch (t.getSort()) {
            case Type.ARRAY -> type(t.getElementType(), refs);
            case Type.OBJECT -> refs.add(t.getInternalName());
            case Type.METHOD -> {
                type(t.getReturnType(), refs);
                for (Type a : t.getArgumentTypes()) {
                    type(a, refs);
                }
            }
            default -> {}
        }
    }

    /** The classes a generic signature names. */
    static void signature(String signature, Set<String> refs) {
        if (signature == null) {
            return;
        }
        new SignatureReader(signature).accept(new SignatureVisitor(Opcodes.ASM9) {
            private String outer;

            @Override
            public void visitClassType(String name) {
                outer = name;
                refs.add(name);
            }

            @Override
            public void visitInnerClassType(String name) {
                outer = outer + "$" + name;
                refs.add(outer);
            }
        });
    }

    private static void clean(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }

    private static void write(Path out, Map<String, byte[]> classes) throws IOException {
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            Path f = out.resolve(e.getKey() + ".class");
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
    }

    /** The public types of the Java 17 API, as {@code javac --release 17} sees them. */
    static final class Java17Api {
        private final Elements elements;

        Java17Api() {
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            URI probeName = URI.create("string:///Probe.java");
            JavaFileObject probe = new SimpleJavaFileObject(probeName, JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return "class Probe {}";
                }
            };
            JavacTask task = (JavacTask)
                    javac.getTask(null, null, null, List.of("--release", "17", "-proc:none"), null, List.of(probe));
            try {
                task.analyze();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            elements = task.getElements();
        }

        boolean has(String internalName) {
            TypeElement t = elements.getTypeElement(internalName.replace('/', '.').replace('$', '.'));
            return t != null && t.getModifiers().contains(Modifier.PUBLIC);
        }
    }

    private SignatureJar() {}
}

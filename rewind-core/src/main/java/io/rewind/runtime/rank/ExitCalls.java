package io.rewind.runtime.rank;

import io.rewind.notice.RuntimeNotices;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.constantpool.MethodRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;

/**
 * Rewrites a rank program's calls of {@code System.exit}, {@code Runtime.exit} and {@code
 * Runtime.halt} into calls of {@link RankExit}. For ranks that are threads of one JVM the JDK's own call
 * would end every rank of the job, and the launcher with them; in a rank process it would end the
 * process with a status that, after {@code MPI.Finalize}, nothing reports. A class that makes no such
 * call is left byte for byte as it is.
 */
final class ExitCalls {
    private static final ClassDesc RANK_EXIT = ClassDesc.of(RankExit.class.getName());
    private static final ClassDesc RUNTIME = ClassDesc.of("java.lang.Runtime");
    private static final MethodTypeDesc STATIC_EXIT = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_int);
    private static final MethodTypeDesc RUNTIME_EXIT =
            MethodTypeDesc.of(ConstantDescs.CD_void, RUNTIME, ConstantDescs.CD_int);

    private ExitCalls() {}

    /**
     * The class with its exit calls redirected, or {@code bytes} itself if it makes none. A rewritten
     * method gets new stack maps, which need the program's class hierarchy: read as class files through
     * {@code loader} (the rank's), never loaded for it.
     */
    static byte[] redirect(byte[] bytes, ClassLoader loader) {
        ClassFile files = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                ClassHierarchyResolver.ofResourceParsing(loader).orElse(ClassHierarchyResolver.defaultResolver())));
        ClassModel model = files.parse(bytes);
        if (!callsExit(model)) {
            return bytes;
        }
        try {
            return rewrite(files, model);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // New stack maps need every class the rewritten methods merge, and one may be missing from
            // the class path (an optional dependency). Leave the class as it is: its System.exit then
            // ends the JVM, as it would without Rewind.
            RuntimeNotices.print("rewind: " + model.thisClass().asInternalName().replace('/', '.')
                    + " keeps its System.exit calls (they end every rank of this JVM): " + e.getMessage());
            return bytes;
        }
    }

    private static byte[] rewrite(ClassFile files, ClassModel model) {
        return files.transformClass(model, ClassTransform.transformingMethodBodies((code, element) -> {
            if (element instanceof InvokeInstruction call && isExit(call.method())) {
                boolean system = call.owner().asInternalName().equals("java/lang/System");
                code.invokestatic(RANK_EXIT, call.name().stringValue(), system ? STATIC_EXIT : RUNTIME_EXIT);
            } else {
                code.with(element);
            }
        }));
    }

    private static boolean callsExit(ClassModel model) {
        for (PoolEntry e : model.constantPool()) {
            if (e instanceof MethodRefEntry m && isExit(m)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isExit(java.lang.classfile.constantpool.MemberRefEntry m) {
        if (!(m instanceof MethodRefEntry) || !m.type().equalsString("(I)V")) {
            return false;
        }
        String owner = m.owner().asInternalName();
        String name = m.name().stringValue();
        return (owner.equals("java/lang/System") && name.equals("exit"))
                || (owner.equals("java/lang/Runtime") && (name.equals("exit") || name.equals("halt")));
    }
}

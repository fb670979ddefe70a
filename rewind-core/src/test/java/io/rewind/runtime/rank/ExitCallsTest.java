package io.rewind.runtime.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExitCallsTest {
    static final class Exits {
        static class Base {}

        static class Left extends Base {}

        static class Right extends Base {}

        static Object pick(int which) {
            Base b;
            if (which > 0) {
                b = new Left();
            } else {
                b = new Right();
            }
            if (which > 10) {
                System.exit(which);
            }
            if (which > 20) {
                Runtime.getRuntime().halt(which);
            }
            return b;
        }
    }

    static final class DoesNotExit {
        static int twice(int x) {
            return 2 * x;
        }
    }

    private static byte[] bytesOf(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    private static List<String> calls(byte[] bytes) {
        List<String> out = new ArrayList<>();
        for (MethodModel m : ClassFile.of().parse(bytes).methods()) {
            for (var e : m.code().map(CodeModel::elementList).orElse(List.of())) {
                if (e instanceof InvokeInstruction i) {
                    out.add(i.owner().asInternalName() + "." + i.name().stringValue()
                            + i.type().stringValue());
                }
            }
        }
        return out;
    }

    private static long count(List<String> calls, String call) {
        return calls.stream().filter(call::equals).count();
    }

    @Test
    void exitCallsGoToRankExitAndOtherClassesStayAsTheyAre() throws IOException {
        byte[] plain = bytesOf(DoesNotExit.class);
        assertSame(plain, ExitCalls.redirect(plain, getClass().getClassLoader()));

        byte[] rewritten = ExitCalls.redirect(bytesOf(Exits.class), getClass().getClassLoader());
        List<String> calls = calls(rewritten);
        assertEquals(0, count(calls, "java/lang/System.exit(I)V"), calls.toString());
        assertEquals(0, count(calls, "java/lang/Runtime.halt(I)V"), calls.toString());
        assertEquals(1, count(calls, "io/rewind/runtime/rank/RankExit.exit(I)V"), calls.toString());
        assertEquals(1, count(calls, "io/rewind/runtime/rank/RankExit.halt(Ljava/lang/Runtime;I)V"), calls.toString());
    }
}

package io.rewind.cli.tools;

import io.rewind.tools.model.ExecutionModel;
import io.rewind.tools.model.ModelParameters;
import io.rewind.tools.model.ModelProjection;
import io.rewind.tools.model.TimeBreakdown;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rewind model}: the analytical model of the MCML paper's section VI. */
@Command(
        name = "model",
        mixinStandardHelpOptions = true,
        header = "Projects time and energy of MCML against simple causal logging at scale.",
        description = {
            "The analytical model of the MCML paper's section VI: the time to solution is solve plus "
                    + "checkpoint plus recover plus restart at the optimal checkpoint period, and the energy "
                    + "comes from two power levels. Simple causal message logging (SCML) checkpoints at omega "
                    + "times the optimal period, MCML at the optimum. The defaults are the paper's table VI; "
                    + "docs/tools.md gives the formulas."
        })
public final class ModelCommand extends ToolCommand {

    @Mixin
    ModelOptions model;

    @Option(names = "--sweep", description = "Also print the curves: 8,000 to 512,000 sockets, omega 0.3 to 0.7.")
    boolean sweep;

    @Override
    int execute() {
        ModelParameters p = model.parameters();
        ExecutionModel.Comparison c = ExecutionModel.compare(p);
        List<ExecutionModel.Comparison> byOmega = new ArrayList<>();
        for (double w : ModelProjection.PAPER_OMEGAS) {
            byOmega.add(ExecutionModel.compare(p.withOmega(w)));
        }
        ModelProjection projection =
                sweep ? ModelProjection.sweep(p, ModelProjection.PAPER_SOCKETS, ModelProjection.PAPER_OMEGAS) : null;
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("parameters", p);
            doc.put("systemMtbfMinutes", p.systemMtbfMinutes());
            doc.put("comparison", summary(c));
            doc.put("byOmega", byOmega.stream().map(ModelCommand::summary).toList());
            if (projection != null) {
                List<Map<String, Object>> curves = new ArrayList<>();
                for (int i = 0; i < projection.omegas().length; i++) {
                    for (ExecutionModel.Comparison x : projection.points().get(i)) {
                        curves.add(summary(x));
                    }
                }
                doc.put("sweep", curves);
            }
            printJson(doc);
            return 0;
        }
        out().printf(
                        "system MTBF %.2f min at %d sockets; optimal checkpoint period tau* = %.2f min%n",
                        p.systemMtbfMinutes(), p.sockets(), c.optimalPeriodMinutes());
        TextTable t = new TextTable(
                "protocol",
                "period (min)",
                "total (h)",
                "solve (h)",
                "checkpoint (h)",
                "recover (h)",
                "restart (h)",
                "energy (MWh)");
        row(t, "SCML (omega " + TextTable.f(p.omega(), 2) + ")", c.scml());
        row(t, "MCML (o " + TextTable.f(p.recoveringFraction(), 2) + ")", c.mcml());
        t.print(out());
        out().printf(
                        "MCML vs SCML: time %+.2f %%, energy %+.2f %%%n",
                        -c.timeReductionPercent(), -c.energyReductionPercent());
        out().println();
        out().printf("at %d sockets, by omega:%n", p.sockets());
        TextTable w = new TextTable("omega", "time reduction %", "energy reduction %");
        for (ExecutionModel.Comparison x : byOmega) {
            w.row(
                    TextTable.f(x.parameters().omega(), 1),
                    TextTable.f(x.timeReductionPercent(), 2),
                    TextTable.f(x.energyReductionPercent(), 2));
        }
        w.print(out());
        if (projection != null) {
            out().println();
            List<String> header = new ArrayList<>(List.of("sockets"));
            for (double o : projection.omegas()) {
                header.add("time w=" + TextTable.f(o, 1));
            }
            for (double o : projection.omegas()) {
                header.add("energy w=" + TextTable.f(o, 1));
            }
            TextTable s = new TextTable(header.toArray(String[]::new));
            for (int j = 0; j < projection.socketCounts().length; j++) {
                List<Object> cells = new ArrayList<>(List.of(projection.socketCounts()[j]));
                for (int i = 0; i < projection.omegas().length; i++) {
                    cells.add(TextTable.f(projection.points().get(i).get(j).relativeTime(), 4));
                }
                for (int i = 0; i < projection.omegas().length; i++) {
                    cells.add(TextTable.f(projection.points().get(i).get(j).relativeEnergy(), 4));
                }
                s.row(cells.toArray());
            }
            out().println("relative time and energy, MCML / SCML:");
            s.print(out());
        }
        out().flush();
        return 0;
    }

    private static void row(TextTable t, String name, TimeBreakdown b) {
        t.row(
                name,
                TextTable.f(b.periodMinutes(), 2),
                TextTable.f(b.totalMinutes() / 60, 2),
                TextTable.f(b.solveMinutes() / 60, 2),
                TextTable.f(b.checkpointMinutes() / 60, 2),
                TextTable.f(b.recoverMinutes() / 60, 2),
                TextTable.f(b.restartMinutes() / 60, 2),
                TextTable.f(b.energyMegawattHours(), 1));
    }

    private static Map<String, Object> summary(ExecutionModel.Comparison c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sockets", c.parameters().sockets());
        m.put("omega", c.parameters().omega());
        m.put("optimalPeriodMinutes", c.optimalPeriodMinutes());
        m.put("scml", c.scml());
        m.put("mcml", c.mcml());
        m.put("relativeTime", c.relativeTime());
        m.put("relativeEnergy", c.relativeEnergy());
        m.put("timeReductionPercent", c.timeReductionPercent());
        m.put("energyReductionPercent", c.energyReductionPercent());
        return m;
    }
}

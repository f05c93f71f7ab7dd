#include "app/outboxctl/FleetTick.h"

#include "core/fleet/FleetSampler.h"

#include <QEventLoop>

namespace outbox::cli {

Result<QVector<MemberSample>> sampleFleetOnce(const Context& ctx, const DiagnosisOptions& options)
{
    auto fleet = ctx.fleet();
    if (!fleet)
        return fleet.error();
    FleetSampler sampler(*fleet, options, [](const Fleet& f, const FleetMember& member) {
        return QStringList{QStringLiteral("--fleet"), f.file(), QStringLiteral("--member"), member.name};
    });
    QVector<MemberSample> samples;
    QEventLoop loop;
    QObject::connect(&sampler, &FleetSampler::tickFinished, &loop, [&](const QVector<MemberSample>& done) {
        samples = done;
        loop.quit();
    });
    sampler.tick();
    loop.exec();
    return samples;
}

} // namespace outbox::cli

#include "app/outboxctl/FleetTick.h"

#include "core/fleet/FleetSampler.h"

#include <QEventLoop>

namespace outbox::cli {

Result<QVector<MemberSample>> sampleFleetOnce(const Context& ctx, const DiagnosisOptions& options)
{
    auto fleet = ctx.fleet();
    if (!fleet)
        return fleet.error();
    FleetSampler sampler(*fleet, options);
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

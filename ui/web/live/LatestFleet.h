#pragma once

#include "core/fleet/MemberSample.h"
#include "core/support/PayloadMasker.h"
#include "ui/web/http/ApiToken.h"
#include "ui/web/http/WebReply.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QVector>

namespace outbox::web {

// The fleet sampler's latest tick on the server's thread (`serve --fleet FILE`), in the shapes the
// server hands out: GET /api/v1/fleet and /metrics (PrometheusExposition::renderFleet).
class LatestFleet
{
    Q_DECLARE_TR_FUNCTIONS(outbox::web::LatestFleet)

public:
    void update(const QVector<MemberSample>& samples);

    bool has() const { return m_received.isValid(); }
    const QVector<MemberSample>& members() const { return m_members; }

    // {"members":[…]} worst first, only those with tag `tag` when it is not empty; error texts
    // masked by `masker` (viewers). 503 before the first tick.
    // Only the members `principal` sees (a token scoped to some members).
    WebReply reply(const QString& tag, const PayloadMasker& masker, const Principal& principal) const;
    // {"type":"fleet","members":[…],"interval_ms":N} for the wall over /ws: every member worst
    // first, error texts masked by `masker`.
    QString pushMessage(const PayloadMasker& masker, qint64 intervalMs, const Principal& principal) const;
    // The members `principal` sees, worst first.
    QVector<MemberSample> visibleTo(const Principal& principal) const;

private:
    QVector<MemberSample> m_members;
    QElapsedTimer m_received;
};

} // namespace outbox::web

#include "ui/desktop/actions/PreviewSample.h"

#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/PlainToolTip.h"

#include <QHeaderView>
#include <QJsonObject>
#include <QTableWidget>

namespace outbox::desktop {

namespace {

QString text(const QJsonObject& row, const char* key)
{
    return row.value(QLatin1String(key)).toString();
}

QString number(const QJsonObject& row, const char* key)
{
    return QString::number(row.value(QLatin1String(key)).toInteger());
}

} // namespace

QString PreviewSample::cell(const QString& text)
{
    QString line = text.simplified();
    if (line.size() > MaxCellLength) {
        const int half = (MaxCellLength - 1) / 2;
        line = line.left(half) + QChar(0x2026) + line.right(half);
    }
    return line;
}

QStringList PreviewSample::captions(Kind kind)
{
    switch (kind) {
    case Kind::Events:
        return {tr("Id"), tr("Type"), tr("Aggregate"), tr("Error")};
    case Kind::DeadLetters:
        return {tr("Id"), tr("Consumer"), tr("Event id"), tr("Error")};
    case Kind::Relays:
        return {tr("Worker"), tr("Host"), tr("State"), tr("Desired"), tr("Heartbeat age")};
    case Kind::Trigger:
        return {tr("Table"), tr("Wake-up trigger"), tr("Now")};
    }
    return {};
}

QStringList PreviewSample::cells(Kind kind, const QJsonObject& row)
{
    switch (kind) {
    case Kind::Events:
        return {number(row, "id"), text(row, "event_type"),
                text(row, "aggregate_type") + QLatin1Char('/') + text(row, "aggregate_id"),
                text(row, "last_error")};
    case Kind::DeadLetters:
        return {number(row, "id"), text(row, "consumer_name"), text(row, "event_id"), text(row, "error")};
    case Kind::Relays:
        return {text(row, "worker_id"), text(row, "host"), text(row, "state"), text(row, "desired_state"),
                Labels::age(row.value(QLatin1String("heartbeat_age_ms")).toInteger(-1))};
    case Kind::Trigger:
        return {text(row, "table"), text(row, "trigger"),
                row.value(QLatin1String("enabled")).toBool() ? tr("on") : tr("off")};
    }
    return {};
}

void PreviewSample::fill(QTableWidget* table, Kind kind, const QJsonArray& sample)
{
    const QStringList columns = captions(kind);
    table->setColumnCount(int(columns.size()));
    table->setHorizontalHeaderLabels(columns);
    table->setRowCount(int(sample.size()));
    for (int row = 0; row < sample.size(); ++row) {
        const QStringList values = cells(kind, sample.at(row).toObject());
        for (int column = 0; column < values.size(); ++column) {
            auto* item = new QTableWidgetItem(cell(values.at(column)));
            item->setToolTip(PlainToolTip::of(values.at(column).left(2000)));
            table->setItem(row, column, item);
        }
    }
    table->resizeColumnsToContents();
}

QString PreviewSample::ordering(const QStringList& consequences)
{
    if (consequences.isEmpty())
        return {};
    QStringList lines = consequences.mid(0, OrderingShown);
    if (consequences.size() > OrderingShown)
        lines << tr("… and %n more aggregate(s).", nullptr, int(consequences.size() - OrderingShown));
    return tr("Ordering:") + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
}

} // namespace outbox::desktop

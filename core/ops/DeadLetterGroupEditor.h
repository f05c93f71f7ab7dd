#pragma once

#include "core/db/DeadLetterGroups.h"
#include "core/ops/JsonChange.h"
#include "core/support/Result.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QVector>
#include <functional>

namespace outbox {

class Database;

// One dead letter of a group edit's preview: what the change makes of its payload.
struct GroupEditItem
{
    qint64 id = 0;
    int editCount = 0;       // the version previewed: the edit of this letter is locked to it
    bool changes = false;    // the change applies and makes a difference
    QStringList differences; // "customer.email: \"a@gmial.com\" → \"a@gmail.com\""
    QString skipped;         // why not (not JSON, path missing, value already set)
    QByteArray before;       // the payload as it is
    QByteArray after;        // the payload it becomes (when it changes)

    QJsonObject toJson(bool withPayloads) const;
};

struct GroupEditPreview
{
    DeadLetterGroup group;
    JsonChange change;
    QVector<GroupEditItem> items; // every NEW dead letter of the group, ascending id
    qint64 changing = 0;
    qint64 skipped = 0;
    // Decided by ActionConfirmation: "edit" and the phrase the operator types ("edit 25").
    QString verb;
    QString confirmation;

    // {id -> edit count} of the letters that change: what apply() locks each edit to.
    QHash<qint64, int> versions() const;
    QJsonObject toJson(bool withPayloads) const;
};

struct GroupEditRequest
{
    DeadLetterGroup group;
    JsonChange change;
    QString reason; // required, in every chunk's audit row
    QString actor;
    // The preview's {id -> edit count}: only these letters are edited, each only while it is still at
    // that edit (DeadLetterEditor's optimistic lock); a letter edited, replayed or discarded since is a
    // conflict and left as it is. Required: nobody changes what they have not seen.
    QHash<qint64, int> versions;
    int chunkSize = 100;
};

struct GroupEditResult
{
    qint64 edited = 0;
    qint64 conflicts = 0; // changed by someone else since the preview (or no longer NEW)
    qint64 skipped = 0;   // the change no longer applies to it
    int chunks = 0;
    QVector<qint64> auditIds; // one per chunk
    QVector<qint64> editedIds;
    bool cancelled = false;

    QJsonObject toJson() const;
};

// Repairs the payloads of one dead-letter group by one JSON change (issue 36 M3, issue 40 item 3):
// preview() shows what the change makes of every NEW letter of the group (each diff), apply() edits
// the previewed letters in chunks, each chunk one transaction with its audit row ("dlq.edit_group":
// the group, the change, the ids and each letter's differences, the reason), each letter locked to
// the edit count the preview saw. The first edit of a letter keeps the message as it came
// (original_*), as DeadLetterEditor's does. A replay of the group then sends the repaired messages.
// `outboxctl dlq edit-group`, POST /api/v1/dead-letters/groups/edit and the console's group dialog
// all come here.
class DeadLetterGroupEditor
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DeadLetterGroupEditor)

public:
    static constexpr int MaxPreviewLetters = 10000;
    static constexpr int MaxChunkSize = 1000;

    explicit DeadLetterGroupEditor(Database& db) : m_db(db) {}

    Result<GroupEditPreview> preview(const DeadLetterGroup& group, const JsonChange& change);
    // progress(done, total) after each chunk; returning false stops before the next chunk.
    using Progress = std::function<bool(qint64 done, qint64 total)>;
    Result<GroupEditResult> apply(const GroupEditRequest& request, const Progress& progress = {});

private:
    Database& m_db;
};

} // namespace outbox

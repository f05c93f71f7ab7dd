#pragma once

#include <QAbstractItemModel>
#include <QJsonValue>
#include <memory>
#include <vector>

namespace outbox::desktop {

// A JSON document as a tree: key, value and type columns (payloads and headers in the inspector).
class JsonTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    explicit JsonTreeModel(QObject* parent = nullptr);
    ~JsonTreeModel() override;

    // Shows `json`; text that is not JSON shows as one string value.
    void setJson(const QByteArray& json);
    void clear();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        QString key;
        QJsonValue value;
        Node* parent = nullptr;
        int row = 0;
        std::vector<std::unique_ptr<Node>> children;
    };

    static void build(Node* node);
    Node* nodeOf(const QModelIndex& index) const;

    std::unique_ptr<Node> m_root;
};

} // namespace outbox::desktop

#include "ui/desktop/widgets/JsonTreeModel.h"

#include "ui/desktop/widgets/PlainToolTip.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace outbox::desktop {

JsonTreeModel::JsonTreeModel(QObject* parent) : QAbstractItemModel(parent), m_root(std::make_unique<Node>())
{
}

JsonTreeModel::~JsonTreeModel() = default;

void JsonTreeModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    endResetModel();
}

void JsonTreeModel::setJson(const QByteArray& json)
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        m_root->value = QJsonArray{QString::fromUtf8(json)};
    else if (doc.isObject())
        m_root->value = doc.object();
    else
        m_root->value = doc.array();
    build(m_root.get());
    endResetModel();
}

void JsonTreeModel::build(Node* node)
{
    auto add = [node](const QString& key, const QJsonValue& value) {
        auto child = std::make_unique<Node>();
        child->key = key;
        child->value = value;
        child->parent = node;
        child->row = int(node->children.size());
        build(child.get());
        node->children.push_back(std::move(child));
    };
    if (node->value.isObject()) {
        const QJsonObject o = node->value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            add(it.key(), it.value());
    } else if (node->value.isArray()) {
        const QJsonArray a = node->value.toArray();
        for (int i = 0; i < a.size(); ++i)
            add(QStringLiteral("[%1]").arg(i), a.at(i));
    }
}

JsonTreeModel::Node* JsonTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    Node* p = nodeOf(parent);
    return createIndex(row, column, p->children.at(size_t(row)).get());
}

QModelIndex JsonTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    Node* n = nodeOf(child);
    if (!n->parent || n->parent == m_root.get())
        return {};
    return createIndex(n->parent->row, 0, n->parent);
}

int JsonTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int JsonTreeModel::columnCount(const QModelIndex&) const
{
    return 3;
}

QVariant JsonTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    if (role == Qt::ToolTipRole) // keys and values are the payload's: never rendered as HTML
        return PlainToolTip::of(data(index, Qt::DisplayRole).toString());
    const Node* n = nodeOf(index);
    const QJsonValue& v = n->value;
    switch (index.column()) {
    case 0:
        return n->key;
    case 1:
        if (v.isObject())
            return tr("{%n key(s)}", nullptr, int(v.toObject().size()));
        if (v.isArray())
            return tr("[%n item(s)]", nullptr, int(v.toArray().size()));
        if (v.isNull())
            return QStringLiteral("null");
        if (v.isBool())
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        if (v.isDouble())
            return QString::number(v.toDouble(), 'g', 17);
        return v.toString();
    case 2:
        switch (v.type()) {
        case QJsonValue::Object:
            return tr("object");
        case QJsonValue::Array:
            return tr("array");
        case QJsonValue::String:
            return tr("string");
        case QJsonValue::Double:
            return tr("number");
        case QJsonValue::Bool:
            return tr("boolean");
        default:
            return tr("null");
        }
    }
    return {};
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case 0:
        return tr("Key");
    case 1:
        return tr("Value");
    default:
        return tr("Type");
    }
}

} // namespace outbox::desktop

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>main</name>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="38"/>
        <source>Outbox Console: live health and audited operations for a transactional outbox.</source>
        <translation>Outbox 控制台：事务性发件箱的实时健康状况与可审计的运维操作。</translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="44"/>
        <source>Database URL (or OUTBOX_DB_URL; password from the URL, OUTBOX_DB_PASSWORD or a prompt).</source>
        <translation>数据库 URL（或 OUTBOX_DB_URL；密码来自 URL、OUTBOX_DB_PASSWORD 或提示输入）。</translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="59"/>
        <source>Start `outboxctl demo` as a child and open its database.</source>
        <translation>以子进程启动 `outboxctl demo` 并打开其数据库。</translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="61"/>
        <source>Open the full-screen wallboard.</source>
        <translation>打开全屏大屏模式。</translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="103"/>
        <source>Demo</source>
        <translation>演示</translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="50"/>
        <source>Prefix of the outbox tables (or OUTBOX_DB_TABLE_PREFIX).</source>
        <translation>outbox 表的前缀（或 OUTBOX_DB_TABLE_PREFIX）。</translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="54"/>
        <source>INI configuration file: [database] url, table_prefix, password.</source>
        <translation>INI 配置文件：[database] url、table_prefix、password。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ActionDialog</name>
    <message>
        <location filename="../ui/desktop/actions/ActionDialog.cpp" line="25"/>
        <source>Sample of the rows that will change:</source>
        <translation>将被更改的行（样本）：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionDialog.cpp" line="35"/>
        <source>Why (written to the audit log)</source>
        <translation>原因（写入审计日志）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionDialog.cpp" line="36"/>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionDialog.cpp" line="41"/>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionDialog.cpp" line="48"/>
        <source>Run</source>
        <translation>执行</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ActionRunner</name>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="70"/>
        <source>Requeue events</source>
        <translation>重新入队事件</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="72"/>
        <source>Mark events DEAD</source>
        <translation>将事件标记为 DEAD</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="74"/>
        <source>Replay dead letters</source>
        <translation>重放死信</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="76"/>
        <source>Discard dead letters</source>
        <translation>丢弃死信</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="119"/>
        <source>Nothing to change: none of the targeted rows is in a state this action accepts (%n conflict(s)).</source>
        <translation>
            <numerusform>无需更改：目标行均不处于此操作接受的状态（%n 个冲突）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="124"/>
        <source>%1: %2 row(s) will change.</source>
        <translation>%1：将更改 %2 行。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="126"/>
        <source>%n targeted row(s) are in another state and will be left alone.</source>
        <translation>
            <numerusform>%n 个目标行处于其他状态，将保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="130"/>
        <source>%1 %2 row(s) match but are not eligible.</source>
        <translation>%1 行 %2 状态的记录匹配但不符合条件。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="143"/>
        <source>This is a PRODUCTION connection.</source>
        <translation>这是生产环境连接。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="160"/>
        <source>Applying in chunks of %1…</source>
        <translation>正在按每批 %1 行执行…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="160"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="153"/>
        <source>Cancelled; nothing changed.</source>
        <translation>已取消，未做任何更改。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="251"/>
        <source>#%1: %2</source>
        <translation>#%1：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="238"/>
        <source>%1: %n row(s) changed</source>
        <translation>
            <numerusform>%1：已更改 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="243"/>
        <source>%n conflict(s) (state changed meanwhile)</source>
        <translation>
            <numerusform>%n 个冲突（期间状态已变化）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="20"/>
        <source>narrow the filter (status, type, aggregate, error or time) and press Apply</source>
        <translation>请缩小筛选范围（状态、类型、聚合、错误或时间）并点击“应用”</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="23"/>
        <source>select the rows to act on</source>
        <translation>请选择要操作的行</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="25"/>
        <source>select a failure group</source>
        <translation>请选择一个失败分组</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="27"/>
        <source>type a reason in the dialog</source>
        <translation>请在对话框中填写原因</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="29"/>
        <source>set an actor name for this profile</source>
        <translation>请为此连接配置设置操作人名称</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="101"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="132"/>
        <source>It runs in chunks of %1 rows, each its own audited transaction; Cancel stops it between chunks.</source>
        <translation>操作按每批 %1 行执行，每批都是独立且记入审计的事务；“取消”会在两批之间停止。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="202"/>
        <source>Cancelled after %n row(s); every finished chunk is committed and audited, the rest is untouched.</source>
        <translation>
            <numerusform>已在处理 %n 行后取消；已完成的批次均已提交并记入审计，其余行保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="224"/>
        <source>Applying in chunks of %1: %2 of %3 row(s) done, chunk %4…</source>
        <translation>正在按每批 %1 行执行：已完成 %2 / %3 行，第 %4 批…</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="240"/>
        <source>in %n audited chunk(s)</source>
        <translation>
            <numerusform>（分 %n 个记入审计的批次）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/actions/ActionRunner.cpp" line="62"/>
        <source>Disconnected; a run under way stops before its next chunk (every finished chunk is committed and audited).</source>
        <translation>已断开连接；进行中的操作会在下一批之前停止（已完成的批次均已提交并记入审计）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::AuditPage</name>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="50"/>
        <source>action, e.g. events.requeue</source>
        <translation>操作，例如 events.requeue</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="53"/>
        <source>actor</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="54"/>
        <source>since</source>
        <translation>起始于</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="57"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="59"/>
        <source>Load more</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="60"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="62"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="68"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="69"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="70"/>
        <source>Actor</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="71"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="72"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="73"/>
        <source>Affected</source>
        <translation>影响行数</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="74"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="75"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="76"/>
        <source>Target ids</source>
        <translation>目标编号</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="88"/>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="94"/>
        <source>Export audit log</source>
        <translation>导出审计日志</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="89"/>
        <source>CSV (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="95"/>
        <source>JSON (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/audit/AuditPage.cpp" line="198"/>
        <source>Exported %n audit entrie(s) to %1</source>
        <translation>
            <numerusform>已导出 %n 条审计记录到 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ConnectDialog</name>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="19"/>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="60"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="24"/>
        <source>(new connection)</source>
        <translation>（新连接）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="42"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="43"/>
        <source>green (development)</source>
        <translation>绿色（开发）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="44"/>
        <source>yellow (staging)</source>
        <translation>黄色（预发布）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="45"/>
        <source>red (production: typed confirmation for every action)</source>
        <translation>红色（生产：每个操作都需输入确认）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="46"/>
        <source>Profile:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="47"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="48"/>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="50"/>
        <source>Colour tag:</source>
        <translation>颜色标签：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="53"/>
        <source>Passwords are never stored: they come from OUTBOX_DB_PASSWORD or are asked for when connecting.</source>
        <translation>密码从不保存：来自 OUTBOX_DB_PASSWORD，或在连接时询问。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="58"/>
        <source>Save profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="49"/>
        <source>Table prefix:</source>
        <translation>表前缀：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/connection/ConnectDialog.cpp" line="35"/>
        <source>none (tables outbox_events, …)</source>
        <translation>无（表 outbox_events 等）</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::DeadLettersPage</name>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="29"/>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="34"/>
        <source>consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="35"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="37"/>
        <source>Load more</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="41"/>
        <source>Selected dead letters</source>
        <translation>选中的死信</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="42"/>
        <source>Every dead letter of the filter</source>
        <translation>筛选结果中的全部死信</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="43"/>
        <source>Replay…</source>
        <translation>重放…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="45"/>
        <source>Discard…</source>
        <translation>丢弃…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="54"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="55"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="56"/>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="57"/>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="58"/>
        <source>Event id</source>
        <translation>事件 ID</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="59"/>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="60"/>
        <source>Last failed</source>
        <translation>最近失败</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="61"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="161"/>
        <source>Select one or more dead letters first.</source>
        <translation>请先选择一条或多条死信。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="164"/>
        <source>%n selected dead letter(s)</source>
        <translation>
            <numerusform>%n 条选中的死信</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="148"/>
        <source>status %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="150"/>
        <source>consumer %1</source>
        <translation>消费者 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="151"/>
        <source>Every dead letter of the applied filter (%1)</source>
        <translation>已应用筛选的全部死信（%1）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="152"/>
        <source>no filter</source>
        <translation>无筛选</translation>
    </message>
    <message>
        <location filename="../ui/desktop/deadletters/DeadLettersPage.cpp" line="155"/>
        <source>— the filter boxes have changes that are not applied and are not used; press Apply to act on them</source>
        <translation>—— 筛选框中有尚未应用的修改，不会被使用；如需按其操作，请先点击“应用”</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::EventInspector</name>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="35"/>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="88"/>
        <source>Select an event to inspect it.</source>
        <translation>选择一个事件以查看详情。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="38"/>
        <source>Copy as JSON</source>
        <translation>复制为 JSON</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="62"/>
        <source>Payload</source>
        <translation>负载</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="63"/>
        <source>Headers</source>
        <translation>头部</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="67"/>
        <source>Raw</source>
        <translation>原始文本</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="70"/>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="70"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="71"/>
        <source>Columns</source>
        <translation>所有列</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="75"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="75"/>
        <source>Actor</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="75"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="75"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="75"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="76"/>
        <source>Audit history</source>
        <translation>审计历史</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="111"/>
        <source>Loading event %1…</source>
        <translation>正在加载事件 %1…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventInspector.cpp" line="135"/>
        <source>Event %1 · %2 · %3</source>
        <translation>事件 %1 · %2 · %3</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::EventTableModel</name>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="228"/>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="236"/>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="243"/>
        <source>(no longer matches)</source>
        <translation>（已不再匹配）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="286"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="288"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="290"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="292"/>
        <source>Aggregate</source>
        <translation>聚合</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="294"/>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="296"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventTableModel.cpp" line="298"/>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::EventsPage</name>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="35"/>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="36"/>
        <source>Unsent (PENDING, SENDING, FAILED)</source>
        <translation>未发送（PENDING、SENDING、FAILED）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="47"/>
        <source>event type</source>
        <translation>事件类型</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="48"/>
        <source>aggregate type</source>
        <translation>聚合类型</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="49"/>
        <source>aggregate id</source>
        <translation>聚合 ID</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="50"/>
        <source>error text</source>
        <translation>错误文本</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="51"/>
        <source>from</source>
        <translation>从</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="55"/>
        <source>until</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="65"/>
        <source>Newest first</source>
        <translation>最新在前</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="66"/>
        <source>Oldest first</source>
        <translation>最旧在前</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="67"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="79"/>
        <source>Selected events</source>
        <translation>选中的事件</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="80"/>
        <source>Every event of the current filter</source>
        <translation>当前筛选的全部事件</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="81"/>
        <source>Requeue…</source>
        <translation>重新入队…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="83"/>
        <source>Mark DEAD…</source>
        <translation>标记为 DEAD…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="87"/>
        <source>Act on:</source>
        <translation>操作对象：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="115"/>
        <source>Failure groups (unsent events by error class and error text)</source>
        <translation>失败分组（按错误类别和错误文本归类的未发送事件）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="117"/>
        <source>Refresh groups</source>
        <translation>刷新分组</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="119"/>
        <source>Requeue group…</source>
        <translation>整组重新入队…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="121"/>
        <source>Mark group DEAD…</source>
        <translation>整组标记为 DEAD…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="127"/>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="128"/>
        <source>Error class</source>
        <translation>错误类别</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="129"/>
        <source>Error fingerprint</source>
        <translation>错误指纹</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="130"/>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/events/EventsPage.cpp" line="173"/>
        <source>%n event(s)</source>
        <translation>
            <numerusform>%n 个事件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/events/EventsPage.cpp" line="174"/>
        <source>%n event(s) so far, more as you scroll</source>
        <translation>
            <numerusform>已加载 %n 个事件，滚动以加载更多</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="200"/>
        <source>The time range is empty: &quot;from&quot; must be before &quot;until&quot;.</source>
        <translation>时间范围为空：“从”必须早于“至”。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="214"/>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="291"/>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="309"/>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="298"/>
        <source>Select a failure group first.</source>
        <translation>请先选择一个失败分组。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="323"/>
        <source>Select one or more events first.</source>
        <translation>请先选择一个或多个事件。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/events/EventsPage.cpp" line="326"/>
        <source>%n selected event(s)</source>
        <translation>
            <numerusform>%n 个选中的事件</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="270"/>
        <source>status %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="272"/>
        <source>type %1</source>
        <translation>类型 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="274"/>
        <source>aggregate type %1</source>
        <translation>聚合类型 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="276"/>
        <source>aggregate %1</source>
        <translation>聚合 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="278"/>
        <source>error contains &quot;%1&quot;</source>
        <translation>错误包含“%1”</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="280"/>
        <source>created from %1</source>
        <translation>创建时间从 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="283"/>
        <source>created until %1</source>
        <translation>创建时间至 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="285"/>
        <source>no filter (every event)</source>
        <translation>无筛选（全部事件）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="303"/>
        <source>Failure group &quot;%1&quot; (error class %2)</source>
        <translation>失败分组“%1”（错误类别 %2）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="305"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="314"/>
        <source>Every event of the applied filter (%1)</source>
        <translation>已应用筛选的全部事件（%1）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/events/EventsPage.cpp" line="318"/>
        <source>— the filter boxes have changes that are not applied and are not used; press Apply to act on them</source>
        <translation>—— 筛选框中有尚未应用的修改，不会被使用；如需按其操作，请先点击“应用”</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::FindingsModel</name>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="44"/>
        <source>CRITICAL</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="46"/>
        <source>WARNING</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="48"/>
        <source>INFO</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="91"/>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="93"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="95"/>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/FindingsModel.cpp" line="97"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::JsonTreeModel</name>
    <message numerus="yes">
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="106"/>
        <source>{%n key(s)}</source>
        <translation>
            <numerusform>{%n 个键}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="108"/>
        <source>[%n item(s)]</source>
        <translation>
            <numerusform>[%n 项]</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="119"/>
        <source>object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="121"/>
        <source>array</source>
        <translation>数组</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="123"/>
        <source>string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="125"/>
        <source>number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="127"/>
        <source>boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="129"/>
        <source>null</source>
        <translation>空值</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="141"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="143"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../ui/desktop/widgets/JsonTreeModel.cpp" line="145"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::MainWindow</name>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="32"/>
        <source>Outbox Console</source>
        <translation>Outbox 控制台</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="36"/>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="55"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="56"/>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="57"/>
        <source>Dead letters</source>
        <translation>死信</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="58"/>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="59"/>
        <source>Relays</source>
        <translation>中继</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="61"/>
        <location filename="../ui/desktop/MainWindow.cpp" line="73"/>
        <source>Recovery</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="74"/>
        <source>Recovery (%1 critical, %2 warning)</source>
        <translation>恢复（%1 严重，%2 警告）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="80"/>
        <source>&amp;Connection</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="81"/>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="83"/>
        <source>&amp;Disconnect</source>
        <translation>断开(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="85"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="86"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="87"/>
        <source>&amp;Wallboard</source>
        <translation>大屏模式(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="89"/>
        <source>Serve &amp;NOC dashboard</source>
        <translation>提供 NOC 仪表板(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="126"/>
        <source>Connection lost: %1 — reconnecting…</source>
        <translation>连接已断开：%1 —— 正在重新连接…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="165"/>
        <source>NOC dashboard at http://127.0.0.1:%1/</source>
        <translation>NOC 仪表板位于 http://127.0.0.1:%1/</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="214"/>
        <source>Outbox Console — %1</source>
        <translation>Outbox 控制台 —— %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="215"/>
        <source>%1 · PRODUCTION</source>
        <translation>%1 · 生产环境</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="222"/>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="237"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="238"/>
        <source>Password for %1:</source>
        <translation>%1 的密码：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="294"/>
        <source>Outbox wallboard — press Esc to leave</source>
        <translation>Outbox 大屏 —— 按 Esc 退出</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="184"/>
        <source>Connected to %1</source>
        <translation>已连接到 %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="213"/>
        <source>%1 · tables %2*</source>
        <translation>%1 · 表 %2*</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ManagedRelay</name>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="31"/>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="87"/>
        <source>$ %1 %2</source>
        <translation>$ %1 %2</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="89"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="104"/>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="112"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="116"/>
        <source>relay exited (%1, code %2); restarting in %3 ms</source>
        <translation>中继已退出（%1，退出码 %2）；%3 毫秒后重启</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="117"/>
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="117"/>
        <source>exited</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/ManagedRelay.cpp" line="120"/>
        <source>restarting</source>
        <translation>正在重启</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::OverviewPage</name>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="62"/>
        <source>Refresh every</source>
        <translation>刷新间隔</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="66"/>
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="69"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="76"/>
        <source>Wallboard</source>
        <translation>大屏模式</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="88"/>
        <source>Oldest pending</source>
        <translation>最早待发送</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="88"/>
        <source>Pending</source>
        <translation>待发送</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="89"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="89"/>
        <source>Dead</source>
        <translation>死亡</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="90"/>
        <source>Dead letters NEW</source>
        <translation>新死信</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="90"/>
        <source>Relays up</source>
        <translation>在线中继</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="104"/>
        <source>Backlog by status</source>
        <translation>各状态积压</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="124"/>
        <source>Sent and failed per interval</source>
        <translation>每个间隔的发送与失败数</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="132"/>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="135"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="145"/>
        <source>Attempts of unsent events</source>
        <translation>未发送事件的尝试次数</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="161"/>
        <source>Worker</source>
        <translation>工作者</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="161"/>
        <source>Sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="161"/>
        <source>Expired leases</source>
        <translation>过期租约</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="164"/>
        <source>Relay</source>
        <translation>中继</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="164"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="164"/>
        <source>Heartbeat age</source>
        <translation>心跳间隔</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="164"/>
        <source>Health</source>
        <translation>健康状况</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="176"/>
        <source>Lease holders</source>
        <translation>租约持有者</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="178"/>
        <source>Relays</source>
        <translation>中继</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="220"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="222"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="224"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="226"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="227"/>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="284"/>
        <source>events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="297"/>
        <source>Updated %1 (%2 ms)%3</source>
        <translation>更新于 %1（%2 毫秒）%3</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="300"/>
        <source>; SENT is an estimate</source>
        <translation>；SENT 为估算值</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="317"/>
        <source>stale heartbeat</source>
        <translation>心跳过期</translation>
    </message>
    <message>
        <location filename="../ui/desktop/overview/OverviewPage.cpp" line="317"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RecoveryFlow</name>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="122"/>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="134"/>
        <source>Open in inspector</source>
        <translation>在检查器中打开</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="145"/>
        <source>Why (likely causes)</source>
        <translation>原因（可能的起因）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="150"/>
        <source>What to do (tick the steps off)</source>
        <translation>怎么做（逐步勾选）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="155"/>
        <source>Prepared actions</source>
        <translation>预备操作</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="168"/>
        <source>The same action from a shell (add --reason and --yes).</source>
        <translation>在命令行中执行相同操作（加上 --reason 和 --yes）。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="169"/>
        <source>Copy command</source>
        <translation>复制命令</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="170"/>
        <source>Preview…</source>
        <translation>预览…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="171"/>
        <source>outboxctl:</source>
        <translation>outboxctl：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="179"/>
        <source>Command copied to the clipboard.</source>
        <translation>命令已复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="210"/>
        <source>Reason (kept in the audit log):</source>
        <translation>原因（记入审计日志）：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="217"/>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="218"/>
        <source>Run</source>
        <translation>执行</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="239"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="240"/>
        <source>Stops between chunks: finished chunks stay committed and audited.</source>
        <translation>在批次之间停止：已完成的批次保持提交并已审计。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="249"/>
        <source>Cancelling after the chunk under way…</source>
        <translation>当前批次完成后取消…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="269"/>
        <source>Check again</source>
        <translation>再次检查</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="270"/>
        <source>Back to the findings</source>
        <translation>返回发现列表</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="295"/>
        <source>Choose a finding to start its recovery.</source>
        <translation>选择一条发现以开始恢复。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="314"/>
        <source>1 What happened, why, what to do</source>
        <translation>1 发生了什么、为什么、怎么做</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="315"/>
        <source>2 Preview</source>
        <translation>2 预览</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="315"/>
        <source>3 Running</source>
        <translation>3 执行中</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="316"/>
        <source>4 Verification</source>
        <translation>4 验证</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="328"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="330"/>
        <source>oldest: %1</source>
        <translation>最早：%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="332"/>
        <source>newest: %1</source>
        <translation>最新：%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="405"/>
        <source>Runs outside the console: copy the command.</source>
        <translation>在控制台之外执行：请复制命令。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="421"/>
        <source>Event #%1</source>
        <translation>事件 #%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="427"/>
        <source>Dead letter #%1</source>
        <translation>死信 #%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="459"/>
        <source>Preparing the preview (a dry run)…</source>
        <translation>正在准备预览（试运行）…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="465"/>
        <source>Preview failed: %1</source>
        <translation>预览失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="502"/>
        <source>%1 — %2 row(s) will change. %3</source>
        <translation>%1 —— 将更改 %2 行。%3</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="505"/>
        <source>%1 %2 row(s) match but are not eligible.</source>
        <translation>%1 行 %2 状态的记录匹配但不符合条件。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="508"/>
        <source>%1 named row(s) are in another state and are left alone.</source>
        <translation>%1 行指定记录处于其他状态，将保持不变。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="511"/>
        <source>It runs in chunks of %1 rows, each its own audited transaction; Cancel stops it between chunks.</source>
        <translation>操作按每批 %1 行执行，每批都是独立且记入审计的事务；“取消”会在两批之间停止。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="515"/>
        <source>This is a PRODUCTION connection.</source>
        <translation>这是生产环境连接。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="517"/>
        <source>Nothing to change: no row is in a state this action accepts (any more).</source>
        <translation>无需更改：（已）没有记录处于此操作接受的状态。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="546"/>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="554"/>
        <source>Preview ready: nothing has changed yet.</source>
        <translation>预览就绪：尚未做任何更改。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="578"/>
        <source>Running %1 in audited chunks of at most %2 rows…</source>
        <translation>正在以每批最多 %2 行的审计批次执行 %1…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="633"/>
        <source>%1 of %2 row(s) done in %3 chunk(s); %4 conflict(s).</source>
        <translation>已完成 %1 / %2 行，共 %3 批；%4 个冲突。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="651"/>
        <source>The action failed: %1. Chunks committed before the error stay committed and are in the audit log.</source>
        <translation>操作失败：%1。出错前已提交的批次保持提交，并记录在审计日志中。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="664"/>
        <source>%1 row(s) changed, %2 conflict(s)%3. Audit rows: %4 (reason &quot;%5&quot;).</source>
        <translation>已更改 %1 行，%2 个冲突%3。审计记录：%4（原因“%5”）。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="667"/>
        <source>, cancelled before the end</source>
        <translation>，在完成前被取消</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="668"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="686"/>
        <source>Running the %1 check again…</source>
        <translation>正在再次运行 %1 检查…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="694"/>
        <source>The check could not run: %1</source>
        <translation>检查无法运行：%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="698"/>
        <source>Before: %1 %2.</source>
        <translation>之前：%1 %2。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="700"/>
        <source>After: the finding is gone — the %1 check finds nothing of it any more.</source>
        <translation>之后：该发现已消失 —— %1 检查不再发现它。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="703"/>
        <source>After: %1 %2 still — %3</source>
        <translation>之后：仍有 %1 %2 —— %3</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="708"/>
        <source>The finding is still there.</source>
        <translation>该发现仍然存在。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryFlow.cpp" line="708"/>
        <source>The finding is gone.</source>
        <translation>该发现已消失。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RecoveryPage</name>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="26"/>
        <source>The doctor has not run yet.</source>
        <translation>诊断尚未运行。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="29"/>
        <source>Run the doctor now</source>
        <translation>立即运行诊断</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="82"/>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="95"/>
        <source>The doctor cannot read the database: %1</source>
        <translation>诊断无法读取数据库：%1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="97"/>
        <source>The doctor is running…</source>
        <translation>诊断正在运行…</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="122"/>
        <source>No findings (checked %1).</source>
        <translation>没有发现（检查于 %1）。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/recovery/RecoveryPage.cpp" line="123"/>
        <source>%1 critical, %2 warning, %3 info (checked %4).</source>
        <translation>%1 严重，%2 警告，%3 提示（检查于 %4）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RelaysPage</name>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="27"/>
        <source>Worker</source>
        <translation>工作者</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="28"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="29"/>
        <source>PID</source>
        <translation>进程号</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="30"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="31"/>
        <source>Desired</source>
        <translation>期望状态</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="32"/>
        <source>Heartbeat age</source>
        <translation>心跳间隔</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="33"/>
        <source>Leases</source>
        <translation>租约</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="34"/>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="35"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="36"/>
        <source>Fenced</source>
        <translation>被隔离</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="37"/>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="56"/>
        <source>reason (required, written to the audit log)</source>
        <translation>原因（必填，写入审计日志）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="63"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="64"/>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="65"/>
        <source>Drain</source>
        <translation>排空</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="74"/>
        <source>Managed relay (outboxctl relay as a child process)</source>
        <translation>托管中继（以子进程运行 outboxctl relay）</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="79"/>
        <source>extra arguments, e.g. --kafka-bootstrap 127.0.0.1:9092</source>
        <translation>附加参数，例如 --kafka-bootstrap 127.0.0.1:9092</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="80"/>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="82"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="84"/>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="138"/>
        <source>Select one or more relays first.</source>
        <translation>请先选择一个或多个中继。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="143"/>
        <source>A reason is required.</source>
        <translation>必须填写原因。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="177"/>
        <source>%1: %n relay(s) changed (audit #%2)</source>
        <translation>
            <numerusform>%1：已更改 %n 个中继（审计 #%2）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="186"/>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <location filename="../ui/desktop/relays/RelaysPage.cpp" line="153"/>
        <source>%1 relay(s): %2. This is a PRODUCTION connection.</source>
        <translation>%1 个中继：%2。这是生产环境连接。</translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CommandLine</name>
    <message>
        <source>an argument holds control characters and cannot be printed safely</source>
        <translation>参数含有控制字符，无法安全地打印</translation>
    </message>
</context>
<context>
    <name>outbox::BacklogAgeCheck</name>
    <message>
        <source>The oldest PENDING event has waited %1 (threshold %2)</source>
        <translation>最早的 PENDING 事件已等待 %1（阈值 %2）</translation>
    </message>
    <message>
        <source>Resume the %1 paused relay(s)</source>
        <translation>继续运行 %1 个已暂停的中继</translation>
    </message>
    <message>
        <source>The relays claim and send again within one heartbeat.</source>
        <translation>这些中继将在一个心跳周期内重新认领并发送事件。</translation>
    </message>
</context>
<context>
    <name>outbox::BlockedAggregates</name>
    <message numerus="yes">
        <source>Event #%1 will never be sent: %n later event(s) of %2 will be sent without it (in ordering mode they wait for it until then).</source>
        <translation>
            <numerusform>事件 #%1 将永远不会被发送：%2 的 %n 个后续事件将在没有它的情况下发送（在有序模式下，它们会一直等待它）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Event #%1 is sent again first: %n later event(s) of %2 will be sent after it (in ordering mode they wait for it until then).</source>
        <translation>
            <numerusform>事件 #%1 将首先被重新发送：%2 的 %n 个后续事件将在它之后发送（在有序模式下，它们会一直等待它）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::BlockedAggregatesCheck</name>
    <message>
        <source>Aggregate %1/%2 is blocked by FAILED event #%3</source>
        <translation>聚合 %1/%2 被 FAILED 事件 #%3 阻塞</translation>
    </message>
    <message>
        <source>%1 aggregates are blocked by FAILED events</source>
        <translation>%1 个聚合被 FAILED 事件阻塞</translation>
    </message>
    <message>
        <source>Requeue the %1 blocking event(s)</source>
        <translation>重新入队 %1 个阻塞事件</translation>
    </message>
    <message>
        <source>Mark the %1 blocking event(s) DEAD</source>
        <translation>将 %1 个阻塞事件标记为 DEAD</translation>
    </message>
    <message>
        <source>The blocking events go back to PENDING and are sent first; the events waiting behind them follow in order.</source>
        <translation>阻塞事件回到 PENDING 并被优先发送；排在其后等待的事件按顺序跟进。</translation>
    </message>
    <message>
        <source>The blocking events become DEAD and are never sent; the events waiting behind them are sent without them.</source>
        <translation>阻塞事件变为 DEAD，永远不会被发送；排在其后等待的事件将在没有它们的情况下发送。</translation>
    </message>
</context>
<context>
    <name>outbox::ContractCheck</name>
    <message>
        <source>%1 event(s) are SENT but were never sent (a writer inserted them as SENT)</source>
        <translation>%1 个事件状态为 SENT 但从未发送过（写入方以 SENT 状态插入了它们）</translation>
    </message>
    <message>
        <source>Send the %1 event(s) that were never sent</source>
        <translation>发送 %1 个从未发送过的事件</translation>
    </message>
    <message>
        <source>The events go back to PENDING and the relay publishes them.</source>
        <translation>这些事件回到 PENDING，由中继发布。</translation>
    </message>
    <message>
        <source>%1 event(s) are SENDING without a lease (a writer inserted them as SENDING)</source>
        <translation>%1 个事件处于 SENDING 状态却没有租约（写入方以 SENDING 状态插入了它们）</translation>
    </message>
    <message>
        <source>Requeue the %1 event(s) stuck in SENDING</source>
        <translation>重新入队 %1 个卡在 SENDING 的事件</translation>
    </message>
    <message>
        <source>%1 unsent event(s) name no topic, and the topic template %2 makes none of their types</source>
        <translation>%1 个未发送事件没有指定主题，且主题模板 %2 无法从它们的类型生成主题</translation>
    </message>
    <message>
        <source>Mark the %1 event(s) DEAD</source>
        <translation>将 %1 个事件标记为 DEAD</translation>
    </message>
    <message>
        <source>The events are never sent; they stay in the table as DEAD.</source>
        <translation>这些事件永远不会被发送；它们以 DEAD 状态保留在表中。</translation>
    </message>
    <message>
        <source>%1 inbox row(s) have a status other than PROCESSED or FAILED</source>
        <translation>%1 条收件箱记录的状态既不是 PROCESSED 也不是 FAILED</translation>
    </message>
    <message>
        <source>%1 unsent event(s) have a payload that is no JSON object or array, or headers that are no JSON object</source>
        <translation>%1 个未发送事件的载荷不是 JSON 对象或数组，或消息头不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1 event(s) carry a header of a name the relay sets itself; the relay drops the writer&apos;s value</source>
        <translation>%1 个事件带有与中继自身消息头同名的消息头；中继会丢弃写入方的值</translation>
    </message>
    <message>
        <source>%1 pending event(s) are held back by created_at or available_at in the future (up to %2 h ahead; %3 look written in another time zone)</source>
        <translation>%1 个待发送事件因 created_at 或 available_at 位于未来而被推迟（最多提前 %2 小时；其中 %3 个看起来是按另一时区写入的）</translation>
    </message>
</context>
<context>
    <name>outbox::Database</name>
    <message>
        <source>cannot connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>cannot prepare the session on %1: %2</source>
        <translation>无法在 %1 上准备会话：%2</translation>
    </message>
</context>
<context>
    <name>outbox::DatabaseUrl</name>
    <message>
        <source>invalid database URL &quot;%1&quot;: %2</source>
        <translation>无效的数据库 URL“%1”：%2</translation>
    </message>
    <message>
        <source>the value of option &quot;%1&quot; must not contain &apos;;&apos;, &apos;=&apos;, quotes, backslashes or control characters</source>
        <translation>选项“%1”的值不得包含 &apos;;&apos;、&apos;=&apos;、引号、反斜杠或控制字符</translation>
    </message>
    <message>
        <source>the value of option &quot;%1&quot; must not start or end with a space</source>
        <translation>选项“%1”的值不得以空格开头或结尾</translation>
    </message>
    <message>
        <source>no database given</source>
        <translation>未提供数据库</translation>
    </message>
    <message>
        <source>expected postgresql://, mysql:// or sqlite:///</source>
        <translation>应为 postgresql://、mysql:// 或 sqlite:///</translation>
    </message>
    <message>
        <source>the SQLite URL names no file (sqlite:///path/to/file.db)</source>
        <translation>SQLite URL 没有指定文件（sqlite:///path/to/file.db）</translation>
    </message>
    <message>
        <source>in-memory SQLite is not supported; name a file</source>
        <translation>不支持内存中的 SQLite；请指定一个文件</translation>
    </message>
    <message>
        <source>unknown scheme &quot;%1&quot; (expected postgresql, mysql or sqlite)</source>
        <translation>未知的协议“%1”（应为 postgresql、mysql 或 sqlite）</translation>
    </message>
    <message>
        <source>no host</source>
        <translation>没有主机</translation>
    </message>
    <message>
        <source>invalid port</source>
        <translation>无效的端口</translation>
    </message>
    <message>
        <source>the user name holds a character a URL may not hold (percent-encode it)</source>
        <translation>用户名含有 URL 中不允许的字符（请对其进行百分号编码）</translation>
    </message>
    <message>
        <source>the password holds a character a URL may not hold (percent-encode it, or give it in [database] password)</source>
        <translation>密码含有 URL 中不允许的字符（请对其进行百分号编码，或在 [database] password 中提供）</translation>
    </message>
    <message>
        <source>invalid host name</source>
        <translation>无效的主机名</translation>
    </message>
    <message>
        <source>invalid database name</source>
        <translation>无效的数据库名</translation>
    </message>
    <message>
        <source>not a URL (%1)</source>
        <translation>不是有效的 URL（%1）</translation>
    </message>
    <message>
        <source>expected exactly one database name in the path</source>
        <translation>路径中应恰好有一个数据库名</translation>
    </message>
    <message>
        <source>unsupported option &quot;%1&quot;</source>
        <translation>不支持的选项“%1”</translation>
    </message>
    <message>
        <source>option &quot;%1&quot; is given twice</source>
        <translation>选项“%1”给出了两次</translation>
    </message>
</context>
<context>
    <name>outbox::DeadLetterEditor</name>
    <message>
        <source>nothing to change: give a new payload, new headers or both</source>
        <translation>没有需要修改的内容：请提供新的载荷、新的消息头或两者</translation>
    </message>
    <message>
        <source>a reason is required</source>
        <translation>必须填写原因</translation>
    </message>
    <message>
        <source>the reason is limited to %1 characters</source>
        <translation>原因最多 %1 个字符</translation>
    </message>
    <message>
        <source>an actor is required (who acts, for the audit log)</source>
        <translation>必须指定操作人（谁在操作，用于审计日志）</translation>
    </message>
    <message>
        <source>invalid edit count %1</source>
        <translation>无效的编辑计数 %1</translation>
    </message>
    <message>
        <source>the payload is limited to %1 bytes (it has %2)</source>
        <translation>载荷最多 %1 字节（当前为 %2）</translation>
    </message>
    <message>
        <source>the payload is not valid JSON: %1 at byte %2</source>
        <translation>载荷不是有效的 JSON：%1，位于第 %2 字节</translation>
    </message>
    <message>
        <source>at most %1 headers</source>
        <translation>最多 %1 个消息头</translation>
    </message>
    <message>
        <source>a header needs a name</source>
        <translation>消息头需要名称</translation>
    </message>
    <message>
        <source>header &quot;%1&quot; must be a string</source>
        <translation>消息头“%1”必须是字符串</translation>
    </message>
    <message>
        <source>header &quot;%1&quot; contains a NUL character</source>
        <translation>消息头“%1”含有 NUL 字符</translation>
    </message>
    <message>
        <source>header &quot;%1&quot; is longer than %2 bytes</source>
        <translation>消息头“%1”超过 %2 字节</translation>
    </message>
    <message>
        <source>invalid dead letter id %1</source>
        <translation>无效的死信 ID %1</translation>
    </message>
    <message>
        <source>the edit must name the version it was made from (the dead letter&apos;s edit count)</source>
        <translation>编辑必须注明它基于哪个版本（死信的编辑计数）</translation>
    </message>
    <message>
        <source>no dead letter with id %1</source>
        <translation>没有 ID 为 %1 的死信</translation>
    </message>
    <message>
        <source>dead letter %1 is %2; only NEW dead letters can be edited (a replay or discard has taken it)</source>
        <translation>死信 %1 的状态为 %2；只有 NEW 状态的死信可以编辑（它已被重放或丢弃）</translation>
    </message>
    <message>
        <source>dead letter %1 was edited meanwhile (it is at edit %2; this edit was made from edit %3): read it again and redo the edit</source>
        <translation>死信 %1 在此期间已被编辑（当前为第 %2 次编辑；本次编辑基于第 %3 次）：请重新读取后再编辑</translation>
    </message>
    <message>
        <source>dead letter %1 changed meanwhile; read it again</source>
        <translation>死信 %1 在此期间已发生变化；请重新读取</translation>
    </message>
</context>
<context>
    <name>outbox::DeadLetterFilter</name>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Event id</source>
        <translation>事件 ID</translation>
    </message>
    <message>
        <source>Error contains</source>
        <translation>错误包含</translation>
    </message>
</context>
<context>
    <name>outbox::DeadLetterGroupEditor</name>
    <message>
        <source>only NEW dead letters can be edited: the group must be of NEW letters</source>
        <translation>只有 NEW 死信可以编辑：分组必须由 NEW 死信组成</translation>
    </message>
    <message>
        <source>the payload is binary, not JSON</source>
        <translation>载荷是二进制数据，不是 JSON</translation>
    </message>
    <message>
        <source>the payload would be larger than %1 bytes</source>
        <translation>载荷将超过 %1 字节</translation>
    </message>
    <message>
        <source>the group has more than %1 dead letters: edit it in parts (a narrower group)</source>
        <translation>该分组超过 %1 条死信：请分批编辑（更窄的分组）</translation>
    </message>
    <message>
        <source>a reason is required</source>
        <translation>必须填写原因</translation>
    </message>
    <message>
        <source>the reason is limited to %1 characters</source>
        <translation>原因最多 %1 个字符</translation>
    </message>
    <message>
        <source>an actor is required (who acts, for the audit log)</source>
        <translation>必须指定操作人（谁在操作，用于审计日志）</translation>
    </message>
    <message>
        <source>nothing to edit: the preview changes no dead letter of the group</source>
        <translation>没有可编辑的内容：预览不会更改该分组的任何死信</translation>
    </message>
    <message>
        <source>the chunk size must be between 1 and %1</source>
        <translation>分块大小必须在 1 到 %1 之间</translation>
    </message>
</context>
<context>
    <name>outbox::DeadLettersCheck</name>
    <message>
        <source>%1 dead letter(s) of consumer %2: %3</source>
        <translation>消费者 %2 的 %1 条死信：%3</translation>
    </message>
    <message>
        <source>Replay the %1 dead letter(s) of this group</source>
        <translation>重放此分组的 %1 条死信</translation>
    </message>
    <message>
        <source>Discard the %1 dead letter(s) of this group</source>
        <translation>丢弃此分组的 %1 条死信</translation>
    </message>
    <message>
        <source>They become REPLAYING; a running relay produces them to their topic again and marks them REPLAYED.</source>
        <translation>它们变为 REPLAYING；运行中的中继会把它们再次发送到各自的主题，并标记为 REPLAYED。</translation>
    </message>
    <message>
        <source>They become DISCARDED and are never delivered again.</source>
        <translation>它们变为 DISCARDED，永远不会再被投递。</translation>
    </message>
    <message>
        <source>Repair the payloads of the %1 dead letter(s) of this group first</source>
        <translation>先修复该分组 %1 条死信的载荷</translation>
    </message>
    <message>
        <source>Nothing changes yet: the group&apos;s payload repair opens (one JSON change, every letter&apos;s diff previewed, a reason, the count typed) and each letter keeps its original. Replay the group once its payloads are right.</source>
        <translation>此时不会有任何更改：将打开该分组的载荷修复（一次 JSON 更改，预览每条死信的差异，填写原因并输入数量确认），每条死信都保留其原始消息。载荷正确后再重放该分组。</translation>
    </message>
    <message>
        <source>the change is yours to write: outboxctl dlq edit-group for this group with --set PATH --to VALUE (or --replace), --dry-run first</source>
        <translation>更改需由您编写：outboxctl dlq edit-group 加上该分组和 --set PATH --to VALUE（或 --replace），先用 --dry-run</translation>
    </message>
</context>
<context>
    <name>outbox::DiagnosisCheck</name>
    <message>
        <source>Start a relay on this database</source>
        <translation>在此数据库上启动一个中继</translation>
    </message>
    <message>
        <source>A relay claims the PENDING events in id order and sends them to the broker; an aggregate blocked by a FAILED event keeps waiting (--ordering=aggregate).</source>
        <translation>中继按 ID 顺序认领 PENDING 事件并发送到 Broker；被 FAILED 事件阻塞的聚合会继续等待（--ordering=aggregate）。</translation>
    </message>
    <message>
        <source>A relay claims the PENDING events in id order and sends them to the broker.</source>
        <translation>中继按 ID 顺序认领 PENDING 事件并发送到 Broker。</translation>
    </message>
</context>
<context>
    <name>outbox::DiagnosisContext</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
</context>
<context>
    <name>outbox::EventFilter</name>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Event type</source>
        <translation>事件类型</translation>
    </message>
    <message>
        <source>Aggregate type</source>
        <translation>聚合类型</translation>
    </message>
    <message>
        <source>Aggregate id</source>
        <translation>聚合 ID</translation>
    </message>
    <message>
        <source>Error contains</source>
        <translation>错误包含</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>创建时间起</translation>
    </message>
    <message>
        <source>Created until</source>
        <translation>创建时间止</translation>
    </message>
    <message>
        <source>Event id</source>
        <translation>事件 ID</translation>
    </message>
    <message>
        <source>Trace id</source>
        <translation>追踪 ID</translation>
    </message>
    <message>
        <source>Header KEY=VALUE</source>
        <translation>消息头 键=值</translation>
    </message>
    <message>
        <source>Payload PATH=VALUE</source>
        <translation>载荷 路径=值</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移量</translation>
    </message>
</context>
<context>
    <name>outbox::EventTrail</name>
    <message>
        <source>unclassified</source>
        <translation>未分类</translation>
    </message>
    <message>
        <source>transient</source>
        <translation>暂时性</translation>
    </message>
    <message>
        <source>deterministic</source>
        <translation>确定性</translation>
    </message>
    <message>
        <source>unknown_outcome</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>last error (%1): %2</source>
        <translation>最后一次错误（%1）：%2</translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation>%1，操作者 %2</translation>
    </message>
    <message>
        <source>: &quot;%1&quot;</source>
        <translation>：“%1”</translation>
    </message>
    <message>
        <source>, outcome %1</source>
        <translation>，结果 %1</translation>
    </message>
    <message>
        <source>%1 of %2/%3</source>
        <translation>%2/%3 的 %1</translation>
    </message>
    <message>
        <source> for topic %1</source>
        <translation>，主题 %1</translation>
    </message>
    <message>
        <source>, traceparent %1</source>
        <translation>，traceparent %1</translation>
    </message>
    <message>
        <source>claimed %1 time(s)</source>
        <translation>已被认领 %1 次</translation>
    </message>
    <message>
        <source>, lease held by %1 until %2</source>
        <translation>，租约由 %1 持有至 %2</translation>
    </message>
    <message>
        <source>, last claimed by %1 (no lease held now)</source>
        <translation>，最后由 %1 认领（当前无租约）</translation>
    </message>
    <message>
        <source>; status now %1</source>
        <translation>；当前状态 %1</translation>
    </message>
    <message>
        <source>held by relay %1 since %2, being sent now (held until %3; a relay that dies lets go at once and the attempt is counted after that)</source>
        <translation>自 %2 起由中继 %1 持有，正在发送（持有至 %3；中继终止时会立即释放，之后才计入此次尝试）</translation>
    </message>
    <message>
        <source>an unrecorded time</source>
        <translation>未记录的时间</translation>
    </message>
    <message>
        <source>sent to %1 partition %2 offset %3</source>
        <translation>已发送到 %1，分区 %2，偏移量 %3</translation>
    </message>
    <message>
        <source>(topic not recorded)</source>
        <translation>（未记录主题）</translation>
    </message>
    <message>
        <source> (event %1)</source>
        <translation>（事件 %1）</translation>
    </message>
    <message>
        <source>consumer %1: %2 (%3 attempt(s))</source>
        <translation>消费者 %1：%2（%3 次尝试）</translation>
    </message>
    <message>
        <source>dead letter %1 by consumer %2 from %3 partition %4 offset %5 after %6 attempt(s): %7</source>
        <translation>死信 %1，由消费者 %2 在 %6 次尝试后产生，来自 %3 分区 %4 偏移量 %5：%7</translation>
    </message>
    <message>
        <source>dead letter %1 replayed to %2 (%3 replay(s))</source>
        <translation>死信 %1 已重放到 %2（%3 次重放）</translation>
    </message>
    <message>
        <source>dead letter %1 replayed to %2 (%3 replay(s), by %4)</source>
        <translation>死信 %1 已重放到 %2（%3 次重放，操作者 %4）</translation>
    </message>
    <message>
        <source> (dead letter %1)</source>
        <translation>（死信 %1）</translation>
    </message>
    <message>
        <source>@%1</source>
        <translation>@%1</translation>
    </message>
</context>
<context>
    <name>outbox::ExpiredLeasesCheck</name>
    <message>
        <source>%1 SENDING event(s) hold a lease that expired over %2 ago</source>
        <translation>%1 个 SENDING 事件持有的租约已过期超过 %2</translation>
    </message>
    <message>
        <source>Requeue the SENDING events with an expired lease</source>
        <translation>重新入队租约已过期的 SENDING 事件</translation>
    </message>
    <message>
        <source>They go back to PENDING (attempts reset) and a relay sends them again.</source>
        <translation>它们回到 PENDING（尝试次数重置），由中继再次发送。</translation>
    </message>
</context>
<context>
    <name>outbox::FailureAdvice</name>
    <message>
        <source>If they must not be sent any more, leave them DEAD: they stay in the table for the audit trail until retention or an operator removes them.</source>
        <translation>如果它们不应再被发送，就保持 DEAD：它们会留在表中作为审计记录，直到保留期结束或由运维人员删除。</translation>
    </message>
    <message>
        <source>If these events must never be sent, mark the group DEAD instead (prepared below), with the reason in the audit log.</source>
        <translation>如果这些事件永远不应被发送，请改为将该分组标记为 DEAD（已在下方准备好），并在审计日志中写明原因。</translation>
    </message>
    <message>
        <source>The relay&apos;s Kafka principal is not allowed to write to the topic (a missing, revoked or mistyped ACL).</source>
        <translation>中继的 Kafka 主体无权写入该主题（ACL 缺失、被撤销或拼写错误）。</translation>
    </message>
    <message>
        <source>The events name a topic nobody may write to (a wrong topic column or --topic-template).</source>
        <translation>这些事件指定了一个无人有权写入的主题（topic 列或 --topic-template 有误）。</translation>
    </message>
    <message>
        <source>Open a sample event and note its topic (or the relay&apos;s --topic-template).</source>
        <translation>打开一个样本事件，记下它的主题（或中继的 --topic-template）。</translation>
    </message>
    <message>
        <source>Outside the product: grant the relay&apos;s principal WRITE and DESCRIBE on that topic, e.g. kafka-acls --add --allow-principal User:RELAY --operation Write --operation Describe --topic TOPIC.</source>
        <translation>在产品之外：为中继的主体授予该主题的 WRITE 和 DESCRIBE 权限，例如 kafka-acls --add --allow-principal User:RELAY --operation Write --operation Describe --topic TOPIC。</translation>
    </message>
    <message>
        <source>Requeue one sample event and watch it become SENT, to prove the ACL works.</source>
        <translation>重新入队一个样本事件，观察它变为 SENT，以确认 ACL 已生效。</translation>
    </message>
    <message>
        <source>Requeue the whole group (prepared below); a relay sends the events again in id order.</source>
        <translation>重新入队整个分组（已在下方准备好）；中继会按 ID 顺序再次发送这些事件。</translation>
    </message>
    <message>
        <source>The payload with its headers is larger than the broker&apos;s message.max.bytes or the topic&apos;s max.message.bytes.</source>
        <translation>载荷连同消息头大于 Broker 的 message.max.bytes 或主题的 max.message.bytes。</translation>
    </message>
    <message>
        <source>The relay&apos;s producer limit (-X message.max.bytes, 1 MB by default) is lower than the payload.</source>
        <translation>中继的生产者上限（-X message.max.bytes，默认 1 MB）小于载荷大小。</translation>
    </message>
    <message>
        <source>A producer put something into the event that does not belong there (a file, a whole document).</source>
        <translation>生产者在事件中放入了不该放的内容（一个文件、一整份文档）。</translation>
    </message>
    <message>
        <source>Open the sample events and look at their payload size: expected, or a producer bug?</source>
        <translation>打开样本事件查看载荷大小：这是预期的，还是生产者的缺陷？</translation>
    </message>
    <message>
        <source>If the size is legitimate: outside the product, raise max.message.bytes on the topic (and message.max.bytes on the brokers), raise the relay&apos;s -X message.max.bytes, restart the relays, then requeue the group (prepared below).</source>
        <translation>如果大小合理：在产品之外调高主题的 max.message.bytes（以及 Broker 的 message.max.bytes），调高中继的 -X message.max.bytes，重启中继，然后重新入队该分组（已在下方准备好）。</translation>
    </message>
    <message>
        <source>Otherwise fix the producer so that it sends a reference instead of the content, and mark these events DEAD (prepared below); let the application publish corrected events if consumers need them.</source>
        <translation>否则修复生产者，使其发送引用而不是内容本身，并将这些事件标记为 DEAD（已在下方准备好）；如果消费者需要，让应用重新发布修正后的事件。</translation>
    </message>
    <message>
        <source>The topic does not exist and the brokers do not create topics (auto.create.topics.enable=false).</source>
        <translation>主题不存在，且 Broker 不会自动创建主题（auto.create.topics.enable=false）。</translation>
    </message>
    <message>
        <source>The events are routed to a wrong name (the topic column, or the relay&apos;s --topic-template).</source>
        <translation>事件被路由到了错误的名称（topic 列或中继的 --topic-template）。</translation>
    </message>
    <message>
        <source>Open a sample event and note its topic.</source>
        <translation>打开一个样本事件，记下它的主题。</translation>
    </message>
    <message>
        <source>Outside the product: create the topic with the partitions and replication the consumers expect (kafka-topics --create --topic TOPIC …), or correct the routing (--topic-template, or the producer that fills the topic column) and restart the relays.</source>
        <translation>在产品之外：按消费者期望的分区数和副本数创建该主题（kafka-topics --create --topic TOPIC …），或修正路由（--topic-template，或填写 topic 列的生产者）并重启中继。</translation>
    </message>
    <message>
        <source>Requeue the group (prepared below).</source>
        <translation>重新入队该分组（已在下方准备好）。</translation>
    </message>
    <message>
        <source>The producer wrote events the broker or its schema checks reject (invalid record, schema mismatch, policy violation).</source>
        <translation>生产者写入的事件被 Broker 或其 schema 校验拒绝（无效记录、schema 不匹配、违反策略）。</translation>
    </message>
    <message>
        <source>A deploy changed the event&apos;s shape without a compatible schema version.</source>
        <translation>一次部署改变了事件的结构，却没有兼容的 schema 版本。</translation>
    </message>
    <message>
        <source>Open a sample event and compare its payload and schema_version with what the topic accepts.</source>
        <translation>打开一个样本事件，将它的载荷和 schema_version 与该主题接受的内容进行比较。</translation>
    </message>
    <message>
        <source>Outside the product: fix the producer (or register the compatible schema) and deploy it, so that new events are valid.</source>
        <translation>在产品之外：修复生产者（或注册兼容的 schema）并部署，使新事件有效。</translation>
    </message>
    <message>
        <source>If these events are acceptable once the schema is registered, requeue the group (prepared below).</source>
        <translation>如果注册 schema 后这些事件可以接受，就重新入队该分组（已在下方准备好）。</translation>
    </message>
    <message>
        <source>If they are invalid for good, mark them DEAD (prepared below) and let the application publish corrected events.</source>
        <translation>如果它们永久无效，就标记为 DEAD（已在下方准备好），并让应用发布修正后的事件。</translation>
    </message>
    <message>
        <source>The broker failed transiently (timeouts, leader elections, throttling) until the events ran out of attempts.</source>
        <translation>Broker 出现暂时性故障（超时、leader 选举、限流），直到这些事件用完了尝试次数。</translation>
    </message>
    <message>
        <source>In ordering mode an event that runs out of attempts stays FAILED and holds back the later events of its aggregate.</source>
        <translation>在有序模式下，用完尝试次数的事件保持 FAILED，并阻塞其聚合的后续事件。</translation>
    </message>
    <message>
        <source>Check the brokers&apos; health and the relay&apos;s log around the time of the last error.</source>
        <translation>检查 Broker 的健康状况，以及中继在最后一次错误前后的日志。</translation>
    </message>
    <message>
        <source>Once the brokers answer again, requeue the group (prepared below).</source>
        <translation>Broker 恢复响应后，重新入队该分组（已在下方准备好）。</translation>
    </message>
    <message>
        <source>An error the doctor does not recognise: read the error text and a sample event.</source>
        <translation>诊断无法识别的错误：请阅读错误文本和一个样本事件。</translation>
    </message>
    <message>
        <source>Open the sample events and read the error text.</source>
        <translation>打开样本事件，阅读错误文本。</translation>
    </message>
    <message>
        <source>Fix the cause (producer, broker or relay configuration).</source>
        <translation>修复原因（生产者、Broker 或中继的配置）。</translation>
    </message>
    <message>
        <source>Requeue the group (prepared below) once the cause is fixed.</source>
        <translation>原因修复后，重新入队该分组（已在下方准备好）。</translation>
    </message>
    <message>
        <source>RabbitMQ returned the message (NO_ROUTE, 312): no queue is bound to the exchange for the event&apos;s routing key (its topic). The relay publishes mandatory messages, so an unroutable one fails instead of vanishing.</source>
        <translation>RabbitMQ 退回了消息（NO_ROUTE，312）：没有队列以事件的路由键（即其 topic）绑定到该交换机。中继以 mandatory 方式发布，因此无法路由的消息会失败，而不是悄然丢失。</translation>
    </message>
    <message>
        <source>The consumers&apos; queue was never bound for this routing key, or it was deleted or unbound.</source>
        <translation>消费者的队列从未为此路由键绑定，或已被删除或解除绑定。</translation>
    </message>
    <message>
        <source>The events are routed to a wrong key (the topic column, or the relay&apos;s relay.topic_template).</source>
        <translation>事件被路由到错误的键（topic 列，或中继的 relay.topic_template）。</translation>
    </message>
    <message>
        <source>Open a sample event and note its topic: it is the routing key on the exchange ([amqp] exchange, outbox by default).</source>
        <translation>打开一个示例事件并记下其 topic：它就是交换机（[amqp] exchange，默认 outbox）上的路由键。</translation>
    </message>
    <message>
        <source>Outside the product: declare the consumers&apos; queue and bind it to the exchange for that routing key, e.g. rabbitmqadmin declare queue name=QUEUE durable=true, then rabbitmqadmin declare binding source=outbox destination=QUEUE routing_key=TOPIC (docs/rabbitmq.md, &quot;Queues and bindings&quot;); or correct the routing (relay.topic_template, or the producer that fills the topic column) and restart the relays.</source>
        <translation>在产品之外：声明消费者的队列并以该路由键绑定到交换机，例如 rabbitmqadmin declare queue name=QUEUE durable=true，然后 rabbitmqadmin declare binding source=outbox destination=QUEUE routing_key=TOPIC（见 docs/rabbitmq.md“Queues and bindings”）；或者修正路由（relay.topic_template，或填写 topic 列的生产者）并重启中继。</translation>
    </message>
    <message>
        <source>Requeue one sample event and watch it become SENT, to prove the binding works.</source>
        <translation>重新排队一个示例事件，观察它变为 SENT，以证明绑定生效。</translation>
    </message>
    <message>
        <source>Requeue the group (prepared below); a relay sends the events again in id order.</source>
        <translation>重新排队该组（已在下方准备好）；中继会按 ID 顺序再次发送这些事件。</translation>
    </message>
</context>
<context>
    <name>outbox::FailureGroupFinding</name>
    <message>
        <source>Requeue the %1 %2 event(s) of this group</source>
        <translation>重新入队此分组的 %1 个 %2 事件</translation>
    </message>
    <message>
        <source>Mark the %1 %2 event(s) of this group DEAD</source>
        <translation>将此分组的 %1 个 %2 事件标记为 DEAD</translation>
    </message>
    <message>
        <source>They go back to PENDING with their attempts reset, and a relay sends them again in id order.</source>
        <translation>它们回到 PENDING 且尝试次数重置，中继会按 ID 顺序再次发送。</translation>
    </message>
    <message>
        <source>They become DEAD: never sent, kept in the table for the audit trail.</source>
        <translation>它们变为 DEAD：永不发送，作为审计记录保留在表中。</translation>
    </message>
    <message>
        <source>no error text</source>
        <translation>无错误文本</translation>
    </message>
    <message>
        <source>%1 %2 event(s): %3</source>
        <translation>%1 个 %2 事件：%3</translation>
    </message>
    <message>
        <source>The sample events&apos; payloads are %1 bytes.</source>
        <translation>样本事件的载荷大小为 %1 字节。</translation>
    </message>
    <message>
        <source>The sample events&apos; payloads are %1 to %2 bytes.</source>
        <translation>样本事件的载荷大小为 %1 至 %2 字节。</translation>
    </message>
</context>
<context>
    <name>outbox::FindingEvidence</name>
    <message>
        <source>events</source>
        <translation>个事件</translation>
    </message>
    <message>
        <source>relays</source>
        <translation>个中继</translation>
    </message>
    <message>
        <source>dead letters</source>
        <translation>条死信</translation>
    </message>
    <message>
        <source>dead rows</source>
        <translation>个死行</translation>
    </message>
    <message>
        <source>aggregates</source>
        <translation>个聚合</translation>
    </message>
    <message>
        <source>batches</source>
        <translation>个批次</translation>
    </message>
    <message>
        <source>migrations</source>
        <translation>个迁移</translation>
    </message>
    <message>
        <source>consumers</source>
        <translation>个消费者</translation>
    </message>
    <message>
        <source>members</source>
        <translation>个成员</translation>
    </message>
    <message>
        <source>triggers</source>
        <translation>个触发器</translation>
    </message>
    <message>
        <source>commits waiting</source>
        <translation>个等待中的提交</translation>
    </message>
</context>
<context>
    <name>outbox::Fleet</name>
    <message>
        <source>member %1: %2</source>
        <translation>成员 %1：%2</translation>
    </message>
    <message>
        <source>password_file %1 is not a readable file</source>
        <translation>password_file %1 不是可读的文件</translation>
    </message>
    <message>
        <source>cannot read password_file %1: %2</source>
        <translation>无法读取 password_file %1：%2</translation>
    </message>
    <message>
        <source>password_file %1 is empty</source>
        <translation>password_file %1 是空的</translation>
    </message>
    <message>
        <source>cannot read the fleet file %1</source>
        <translation>无法读取舰队文件 %1</translation>
    </message>
    <message>
        <source>the fleet file %1 is larger than %2 bytes</source>
        <translation>舰队文件 %1 超过 %2 字节</translation>
    </message>
    <message>
        <source>unknown section [%1] (a fleet file has [fleet] and [member NAME])</source>
        <translation>未知的节 [%1]（舰队文件只有 [fleet] 节和 [member 名称] 节）</translation>
    </message>
    <message>
        <source>[member] needs a name: [member orders]</source>
        <translation>[member] 节需要名称，例如 [member orders]</translation>
    </message>
    <message>
        <source>a member of that name is already on line %1</source>
        <translation>第 %1 行已有同名成员</translation>
    </message>
    <message>
        <source>unknown key %1 in [fleet] (known: %2)</source>
        <translation>[fleet] 节中的未知键 %1（可用的键：%2）</translation>
    </message>
    <message>
        <source>unknown key %1 (known: %2)</source>
        <translation>未知键 %1（可用的键：%2）</translation>
    </message>
    <message>
        <source>password_file needs a file</source>
        <translation>password_file 需要一个文件</translation>
    </message>
    <message>
        <source>%1: the fleet file has no [member NAME] section</source>
        <translation>%1：舰队文件没有 [member 名称] 节</translation>
    </message>
    <message>
        <source>has no url</source>
        <translation>缺少 url 键</translation>
    </message>
    <message>
        <source>no member %1 in %2 (members: %3)</source>
        <translation>%2 中没有成员 %1（成员：%3）</translation>
    </message>
    <message>
        <source>password_file %1 may be read or changed by other users: allow its owner only (chmod 600)</source>
        <translation>password_file %1 可能被其他用户读取或修改：只允许其所有者访问（chmod 600）</translation>
    </message>
    <message>
        <source>a member name is a letter or digit followed by up to 62 letters, digits, _ or -</source>
        <translation>成员名称以字母或数字开头，后接最多 62 个字母、数字、_ 或 -</translation>
    </message>
    <message>
        <source>the name is the same as member %1&apos;s on line %2 (both would take their password from %3)</source>
        <translation>该名称与第 %2 行成员 %1 的名称相同（两者都会从 %3 读取密码）</translation>
    </message>
    <message>
        <source>[fleet] max_connections must be a number between 1 and %1 (got &quot;%2&quot;)</source>
        <translation>[fleet] max_connections 必须是 1 到 %1 之间的数字（实际为“%2”）</translation>
    </message>
    <message>
        <source>[fleet] unreachable_after must be a number of ticks between 1 and %1 (got &quot;%2&quot;)</source>
        <translation>[fleet] unreachable_after 必须是 1 到 %1 之间的采样轮数（实际为“%2”）</translation>
    </message>
    <message>
        <source>[fleet] %1 must be a duration between %2 and %3, such as 3s (got &quot;%4&quot;)</source>
        <translation>[fleet] %1 必须是 %2 到 %3 之间的时长，例如 3s（实际为“%4”）</translation>
    </message>
    <message>
        <source>table_prefix %1 (got &quot;%2&quot;)</source>
        <translation>table_prefix %1（实际为“%2”）</translation>
    </message>
    <message>
        <source>invalid tag &quot;%1&quot; (tags are name=value or a word of letters, digits and _ . : / -, separated by commas)</source>
        <translation>无效的标签“%1”（标签为 名称=值，或由字母、数字和 _ . : / - 组成的词，以逗号分隔）</translation>
    </message>
    <message>
        <source>broker must be kafka://HOST:PORT or amqp://USER@HOST:PORT/VHOST (got &quot;%1&quot;)</source>
        <translation>broker 必须为 kafka://HOST:PORT 或 amqp://USER@HOST:PORT/VHOST（实际为“%1”）</translation>
    </message>
    <message>
        <source>a broker password does not belong in the fleet file: the relay takes it from its own configuration or environment</source>
        <translation>Broker 密码不应写在舰队文件中：中继从它自己的配置或环境变量中读取</translation>
    </message>
    <message>
        <source>a password does not belong in the fleet file: give it in %1 or the member&apos;s password_file</source>
        <translation>密码不应写在舰队文件中：请通过 %1 或该成员的 password_file 提供</translation>
    </message>
</context>
<context>
    <name>outbox::FleetFileWriter</name>
    <message>
        <source>member %1: a value with a double quote or a line break cannot be written</source>
        <translation>成员 %1：含双引号或换行的值无法写入</translation>
    </message>
    <message>
        <source>cannot write the fleet file %1: %2</source>
        <translation>无法写入舰队文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>outbox::FleetMember</name>
    <message>
        <source>name it with broker = kafka://HOST:PORT or amqp://USER@HOST:PORT/VHOST in [member %1] of the fleet file</source>
        <translation>请在舰队文件的 [member %1] 中用 broker = kafka://HOST:PORT 或 amqp://USER@HOST:PORT/VHOST 指定</translation>
    </message>
</context>
<context>
    <name>outbox::FleetSampler</name>
    <message>
        <source>still waiting for its previous sample, started %1 ago</source>
        <translation>仍在等待上一次采样，该采样开始于 %1 前</translation>
    </message>
    <message>
        <source>did not answer within %1</source>
        <translation>未在 %1 内响应</translation>
    </message>
    <message>
        <source>no outbox schema yet (outboxctl migrate creates it)</source>
        <translation>尚无 outbox 数据库结构（outboxctl migrate 会创建它）</translation>
    </message>
    <message>
        <source>the outbox schema is at version %1 of %2</source>
        <translation>outbox 数据库结构处于第 %1 版（共 %2 版）</translation>
    </message>
</context>
<context>
    <name>outbox::HeldClaimsCheck</name>
    <message>
        <source>%1 held batch(es) of %2 event(s) outlived their relay %3 ago and are not reaped</source>
        <translation>%1 个持有批次（共 %2 个事件）在其中继消失 %3 后仍未被回收</translation>
    </message>
</context>
<context>
    <name>outbox::JsonChange</name>
    <message>
        <source>a path is required (members separated by dots, e.g. customer.email or items.0.sku)</source>
        <translation>必须给出路径（成员以点分隔，例如 customer.email 或 items.0.sku）</translation>
    </message>
    <message>
        <source>the path is deeper than %1 members</source>
        <translation>路径深度超过 %1 个成员</translation>
    </message>
    <message>
        <source>the path &quot;%1&quot; has an empty member</source>
        <translation>路径“%1”含有空成员</translation>
    </message>
    <message>
        <source>(missing)</source>
        <translation>（缺失）</translation>
    </message>
    <message>
        <source>%1 is missing</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>%1 is not an element of an array of %2</source>
        <translation>%1 不是长度为 %2 的数组中的元素</translation>
    </message>
    <message>
        <source>%1 is inside a value that is neither an object nor an array</source>
        <translation>%1 位于既不是对象也不是数组的值之中</translation>
    </message>
    <message>
        <source>replacing a value with itself changes nothing</source>
        <translation>用自身替换一个值不会有任何更改</translation>
    </message>
    <message>
        <source>a set change needs &quot;set&quot; (a path) and &quot;value&quot;</source>
        <translation>set 更改需要 &quot;set&quot;（路径）和 &quot;value&quot;</translation>
    </message>
    <message>
        <source>a replace change needs &quot;replace&quot; (a path, or &quot;&quot; for anywhere), &quot;from&quot; and &quot;to&quot;</source>
        <translation>replace 更改需要 &quot;replace&quot;（路径，或 &quot;&quot; 表示任意位置）、&quot;from&quot; 和 &quot;to&quot;</translation>
    </message>
    <message>
        <source>the change is {&quot;set&quot;: PATH, &quot;value&quot;: V} or {&quot;replace&quot;: PATH, &quot;from&quot;: V, &quot;to&quot;: V}</source>
        <translation>更改的格式为 {&quot;set&quot;: PATH, &quot;value&quot;: V} 或 {&quot;replace&quot;: PATH, &quot;from&quot;: V, &quot;to&quot;: V}</translation>
    </message>
    <message>
        <source>set %1 = %2</source>
        <translation>设置 %1 = %2</translation>
    </message>
    <message>
        <source>replace %1 with %2 anywhere in the payload</source>
        <translation>在载荷的任意位置把 %1 替换为 %2</translation>
    </message>
    <message>
        <source>replace %1 with %2 in %3</source>
        <translation>在 %3 中把 %1 替换为 %2</translation>
    </message>
    <message>
        <source>the payload is not JSON (%1 at byte %2)</source>
        <translation>载荷不是 JSON（第 %2 字节处：%1）</translation>
    </message>
    <message>
        <source>%1 has that value already</source>
        <translation>%1 已经是该值</translation>
    </message>
    <message>
        <source>no value %1 in the payload</source>
        <translation>载荷中没有值 %1</translation>
    </message>
</context>
<context>
    <name>outbox::JsonFields</name>
    <message>
        <source>unknown %1 field &quot;%2&quot; (expected %3)</source>
        <translation>未知的 %1 字段“%2”（应为 %3 之一）</translation>
    </message>
    <message>
        <source>%1 field &quot;%2&quot; must be a string</source>
        <translation>%1 字段“%2”必须是字符串</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; must be an array of strings or a comma-separated list</source>
        <translation>字段“%1”必须是字符串数组或以逗号分隔的列表</translation>
    </message>
</context>
<context>
    <name>outbox::JsonText</name>
    <message>
        <source>no error</source>
        <translation>没有错误</translation>
    </message>
    <message>
        <source>unterminated object</source>
        <translation>对象未结束</translation>
    </message>
    <message>
        <source>missing name separator (:)</source>
        <translation>缺少名称分隔符（:）</translation>
    </message>
    <message>
        <source>unterminated array</source>
        <translation>数组未结束</translation>
    </message>
    <message>
        <source>missing value separator (,)</source>
        <translation>缺少值分隔符（,）</translation>
    </message>
    <message>
        <source>illegal value</source>
        <translation>非法的值</translation>
    </message>
    <message>
        <source>the text ends inside a number</source>
        <translation>文本在数字中间结束</translation>
    </message>
    <message>
        <source>illegal number</source>
        <translation>非法的数字</translation>
    </message>
    <message>
        <source>illegal escape sequence</source>
        <translation>非法的转义序列</translation>
    </message>
    <message>
        <source>illegal UTF-8 string</source>
        <translation>非法的 UTF-8 字符串</translation>
    </message>
    <message>
        <source>unterminated string</source>
        <translation>字符串未结束</translation>
    </message>
    <message>
        <source>an object is missing after a comma</source>
        <translation>逗号后缺少对象</translation>
    </message>
    <message>
        <source>nested too deeply</source>
        <translation>嵌套过深</translation>
    </message>
    <message>
        <source>the document is too large</source>
        <translation>文档过大</translation>
    </message>
    <message>
        <source>unexpected text after the end of the document</source>
        <translation>文档结束后还有多余的文本</translation>
    </message>
    <message>
        <source>invalid JSON</source>
        <translation>无效的 JSON</translation>
    </message>
</context>
<context>
    <name>outbox::KafkaBroker</name>
    <message>
        <source>message.timeout.ms=0 means no delivery timeout at all in librdkafka: a claimed event could wait for its report longer than any lease, and another relay would send it too; give a timeout below the lease (%1 ms)</source>
        <translation>message.timeout.ms=0 表示 librdkafka 完全没有投递超时：已认领的事件等待投递报告的时间可能超过任何租约，另一个中继也会发送它；请给出低于租约（%1 毫秒）的超时</translation>
    </message>
    <message>
        <source>message.timeout.ms (%1 ms) is too long for the lease (%2 ms): the lease must exceed %3 ms; lower message.timeout.ms or lengthen the lease</source>
        <translation>message.timeout.ms（%1 毫秒）对租约（%2 毫秒）来说太长：租约必须超过 %3 毫秒；请调低 message.timeout.ms 或延长租约</translation>
    </message>
    <message>
        <source>the consumer needs at least one topic</source>
        <translation>消费者至少需要一个主题</translation>
    </message>
    <message>
        <source>%1 must stay false: the consumer acknowledges only after its database commit</source>
        <translation>%1 必须保持为 false：消费者只在其数据库提交之后才确认</translation>
    </message>
    <message>
        <source>group.id cannot be set: the consumer group is named after the consumer</source>
        <translation>不能设置 group.id：消费者组以消费者的名称命名</translation>
    </message>
    <message>
        <source>no Kafka bootstrap servers given</source>
        <translation>未提供 Kafka 引导服务器</translation>
    </message>
</context>
<context>
    <name>outbox::MemberBroker</name>
    <message>
        <source>set [kafka] bootstrap (or [broker] url) in the configuration, or give the broker&apos;s address with --kafka-bootstrap when you start outboxctl relay with this database&apos;s connection options</source>
        <translation>在配置中设置 [kafka] bootstrap（或 [broker] url），或者在使用此数据库的连接选项启动 outboxctl relay 时用 --kafka-bootstrap 给出 Broker 地址</translation>
    </message>
    <message>
        <source>this database&apos;s relays publish to %1, but the relay registry does not record the user they log in as: %2</source>
        <translation>此数据库的中继发布到 %1，但中继注册表没有记录它们登录所用的用户：%2</translation>
    </message>
    <message>
        <source>the broker is not configured and no relay has registered one: %1</source>
        <translation>未配置 Broker，也没有中继登记过 Broker：%1</translation>
    </message>
</context>
<context>
    <name>outbox::NoRelayCheck</name>
    <message>
        <source>%1 event(s) pending and no relay is running</source>
        <translation>%1 个事件待发送，但没有中继在运行</translation>
    </message>
</context>
<context>
    <name>outbox::NotifyLockWaitCheck</name>
    <message>
        <source>Writers&apos; commits wait for the notification lock: up to %1 at once in %2 of %3 samples (wake-up trigger %4 on)</source>
        <translation>写入方的提交在等待通知锁：%3 次采样中有 %2 次出现等待，最多同时 %1 个（唤醒触发器 %4 已开启）</translation>
    </message>
    <message>
        <source>Switch the wake-up trigger off (the default): relays wake by doorbell or polling</source>
        <translation>关闭唤醒触发器（默认设置）：中继改由门铃或轮询唤醒</translation>
    </message>
    <message>
        <source>Writers&apos; commits stop queueing on the notification lock; the switch and its reason go into the audit log; running relays notice within a heartbeat.</source>
        <translation>写入方的提交不再排队等待通知锁；这次切换及其原因记入审计日志；运行中的中继会在一个心跳周期内察觉。</translation>
    </message>
</context>
<context>
    <name>outbox::NotifyTrigger</name>
    <message>
        <source>a reason is required</source>
        <translation>必须填写原因</translation>
    </message>
    <message>
        <source>this database has no wake-up trigger: relays poll it (relay.poll_ms); there is nothing to switch on</source>
        <translation>此数据库没有唤醒触发器：中继对它轮询（relay.poll_ms）；没有可开启的内容</translation>
    </message>
    <message>
        <source>the wake-up trigger %1 on %2 is missing: run outboxctl migrate as the schema owner to create it</source>
        <translation>%2 上的唤醒触发器 %1 不存在：请以 schema 所有者身份运行 outboxctl migrate 来创建它</translation>
    </message>
    <message>
        <source>only the owner of %1 (the account that ran outboxctl migrate) may switch its wake-up trigger; this connection&apos;s role may not: nothing changed</source>
        <translation>只有 %1 的所有者（运行 outboxctl migrate 的账户）可以切换它的唤醒触发器；此连接的角色无权这样做：未做任何更改</translation>
    </message>
    <message>
        <source>%1 could not be changed (%2); nothing changed. A long transaction on the table holds its lock: try again.</source>
        <translation>%1 无法更改（%2）；未做任何更改。该表上有长事务持有锁：请重试。</translation>
    </message>
</context>
<context>
    <name>outbox::RelayDegradedCheck</name>
    <message>
        <source>%1 relay(s) DEGRADED: %2</source>
        <translation>%1 个中继处于 DEGRADED：%2</translation>
    </message>
    <message>
        <source>no error given</source>
        <translation>未给出错误</translation>
    </message>
</context>
<context>
    <name>outbox::RelayLogText</name>
    <message>
        <source>%1 -&gt; %2</source>
        <translation>状态 %1 -&gt; %2</translation>
    </message>
    <message>
        <source>%1 -&gt; %2: %3</source>
        <translation>状态 %1 -&gt; %2：%3</translation>
    </message>
    <message>
        <source>%1: no answer for %2 s</source>
        <translation>%1：%2 秒无应答</translation>
    </message>
    <message>
        <source>wake-up: poll (every %1 to %2 ms while idle) until the doorbell&apos;s slot %3 exists: PostgreSQL creates it once the transactions open on the server have ended (waiting %4 s so far)</source>
        <translation>唤醒方式：轮询（空闲时每 %1 至 %2 毫秒一次），直到门铃的复制槽 %3 建好：PostgreSQL 要等服务器上已打开的事务结束后才创建它（已等待 %4 秒）</translation>
    </message>
    <message>
        <source>still %1: %2</source>
        <translation>仍为 %1：%2</translation>
    </message>
    <message>
        <source>LISTEN %1 failed; polling every %2 ms</source>
        <translation>LISTEN %1 失败；改为每 %2 毫秒轮询一次</translation>
    </message>
    <message>
        <source>wake-up trigger %1 is on (outboxctl notify on): every writer&apos;s commit waits for the notification lock</source>
        <translation>唤醒触发器 %1 已开启（outboxctl notify on）：每个写入方的提交都要等待通知锁</translation>
    </message>
    <message>
        <source>wake-up trigger %1 is off (the default)</source>
        <translation>唤醒触发器 %1 已关闭（默认）</translation>
    </message>
    <message>
        <source>wake-up: notify (every commit of events wakes this relay)</source>
        <translation>唤醒方式：通知（每次提交事件都会唤醒此中继）</translation>
    </message>
    <message>
        <source>wake-up: doorbell (temporary logical replication slot %1 on publication %2; polling every %3 to %4 ms as a safety net)</source>
        <translation>唤醒方式：门铃（发布 %2 上的临时逻辑复制槽 %1；另每 %3 至 %4 毫秒轮询一次作为保险）</translation>
    </message>
    <message>
        <source>wake-up: data_version (the database&apos;s change counter, every %1 ms)</source>
        <translation>唤醒方式：data_version（数据库的变更计数器，每 %1 毫秒一次）</translation>
    </message>
    <message>
        <source>wake-up: poll (every %1 to %2 ms while idle)</source>
        <translation>唤醒方式：轮询（空闲时每 %1 至 %2 毫秒一次）</translation>
    </message>
    <message>
        <source>wake-up: poll (every %1 to %2 ms while idle); no doorbell: %3</source>
        <translation>唤醒方式：轮询（空闲时每 %1 至 %2 毫秒一次）；没有门铃：%3</translation>
    </message>
    <message>
        <source>doorbell lost (%1): polling every %2 to %3 ms until it rings again</source>
        <translation>门铃已失去（%1）：在它再次响起之前每 %2 至 %3 毫秒轮询一次</translation>
    </message>
    <message>
        <source>desired state %1: drained</source>
        <translation>期望状态 %1：已排空</translation>
    </message>
    <message>
        <source>drain time (%1 ms) passed with %2 event(s) unanswered by %3; their leases expire and they are sent again</source>
        <translation>排空时间（%1 毫秒）已过，%3 仍有 %2 个事件未应答；它们的租约将到期并被重新发送</translation>
    </message>
    <message>
        <source>recreating the producer after a fatal error: %1</source>
        <translation>发生致命错误后重新创建生产者：%1</translation>
    </message>
    <message>
        <source>%1 reachable again</source>
        <translation>%1 已可再次连接</translation>
    </message>
    <message>
        <source>%1 (the batch&apos;s events are PENDING again and are sent again)</source>
        <translation>%1（该批事件重新变为 PENDING 并将被重新发送）</translation>
    </message>
    <message>
        <source>%1: %2 event(s) fenced: their lease was taken over</source>
        <translation>%1：%2 个事件被隔离：它们的租约已被接管</translation>
    </message>
    <message>
        <source>%1 event(s) released, %2; claiming again once it drains</source>
        <translation>已释放 %1 个事件，%2；排空后再次认领</translation>
    </message>
    <message>
        <source>retention: %1 DEAD event(s) older than [relay] dead_retention removed (audited as events.retention_dead)</source>
        <translation>保留期：已删除 %1 个早于 [relay] dead_retention 的 DEAD 事件（审计记录为 events.retention_dead）</translation>
    </message>
    <message>
        <source>heartbeat: %1</source>
        <translation>心跳：%1</translation>
    </message>
    <message>
        <source>heartbeat failed: %1</source>
        <translation>心跳失败：%1</translation>
    </message>
    <message>
        <source>desired state %1</source>
        <translation>期望状态 %1</translation>
    </message>
    <message>
        <source>counted the lost attempt of %1 event(s) whose relay died holding them</source>
        <translation>已为 %1 个事件计入丢失的一次尝试（持有它们的中继已停止）</translation>
    </message>
    <message>
        <source>returned %1 event(s) with expired leases to PENDING</source>
        <translation>已将 %1 个租约过期的事件退回 PENDING</translation>
    </message>
    <message>
        <source>%1 event(s) with %2 had used up their %3 attempts: marked %4</source>
        <translation>%1 个%2的事件已用完 %3 次尝试：已标记为 %4</translation>
    </message>
    <message>
        <source>lost held claims</source>
        <translation>丢失持有认领</translation>
    </message>
    <message>
        <source>expired leases</source>
        <translation>租约过期</translation>
    </message>
    <message>
        <source>%1 dead letter(s) back to NEW: out of replay attempts, the last one never answered (its replayer stopped or crashed)</source>
        <translation>%1 条死信退回 NEW：重放尝试已用完，最后一次始终没有应答（其重放者已停止或崩溃）</translation>
    </message>
    <message>
        <source>replay of dead letter #%1 to %2 not acknowledged (%3); %4</source>
        <translation>死信 #%1 重放到 %2 未被确认（%3）；%4</translation>
    </message>
    <message>
        <source>dead letter #%1 replayed to %2 (partition %3, offset %4)</source>
        <translation>死信 #%1 已重放到 %2（分区 %3，偏移量 %4）</translation>
    </message>
    <message>
        <source>dead letter #%1 was replayed, but its lease had expired and passed to another replayer meanwhile</source>
        <translation>死信 #%1 已重放，但其租约此前已过期并转交给了另一个重放者</translation>
    </message>
    <message>
        <source>%1 worker(s), %2 -&gt; %3</source>
        <translation>%1 个工作者，%2 -&gt; %3</translation>
    </message>
    <message>
        <source>%1 worker(s), %2 (tables %3*) -&gt; %4</source>
        <translation>%1 个工作者，%2（表 %3*）-&gt; %4</translation>
    </message>
    <message>
        <source>sent %1 (%2/s) failed %3 dead %4 retried %5 released %6 fenced %7 reaped %8 | commit-&gt;ack p50 %9 p99 %10</source>
        <translation>已发送 %1（%2/秒） 失败 %3 死亡 %4 重试 %5 释放 %6 隔离 %7 回收 %8 | 提交到确认 p50 %9 p99 %10</translation>
    </message>
    <message>
        <source>stopped; %1</source>
        <translation>已停止；%1</translation>
    </message>
    <message>
        <source>%1 relay %2: %3</source>
        <translation>%1 中继 %2：%3</translation>
    </message>
    <message>
        <source>%1: %2 (the batch&apos;s transaction is rolled back and its events are sent again)</source>
        <translation>%1：%2（该批的事务已回滚，其事件将被重新发送）</translation>
    </message>
    <message>
        <source>%1: %2 (the leases expire and the events are sent again)</source>
        <translation>%1：%2（租约将到期，事件将被重新发送）</translation>
    </message>
</context>
<context>
    <name>outbox::RelayOptions</name>
    <message>
        <source>the batch size must be between 1 and 10000</source>
        <translation>批大小必须在 1 到 10000 之间</translation>
    </message>
    <message>
        <source>the lease must be at least 1000 ms</source>
        <translation>租约至少为 1000 毫秒</translation>
    </message>
    <message>
        <source>max attempts must be at least 1</source>
        <translation>最大尝试次数至少为 1</translation>
    </message>
    <message>
        <source>the backoff cap must not be below its base</source>
        <translation>退避上限不得低于其基数</translation>
    </message>
    <message>
        <source>poll interval and heartbeat are too short</source>
        <translation>轮询间隔和心跳太短</translation>
    </message>
    <message>
        <source>the linger must be between 0 and 1000 ms</source>
        <translation>linger 必须在 0 到 1000 毫秒之间</translation>
    </message>
</context>
<context>
    <name>outbox::RelayStaleCheck</name>
    <message>
        <source>Relay %1 has not sent a heartbeat for %2</source>
        <translation>中继 %1 已有 %2 没有发送心跳</translation>
    </message>
    <message>
        <source>%1 relays have not sent a heartbeat for over %2</source>
        <translation>%1 个中继已超过 %2 没有发送心跳</translation>
    </message>
    <message>
        <source>Forget the stale relay registration(s)</source>
        <translation>清除失效的中继注册</translation>
    </message>
    <message>
        <source>The registry rows of relays whose heartbeat is stale are deleted (audited); a relay that comes back registers again.</source>
        <translation>心跳已过期的中继的注册记录将被删除（记入审计）；中继恢复后会重新注册。</translation>
    </message>
</context>
<context>
    <name>outbox::ReplayStuckCheck</name>
    <message>
        <source>%1 dead letter(s) REPLAYING for over %2</source>
        <translation>%1 条死信处于 REPLAYING 已超过 %2</translation>
    </message>
    <message>
        <source>Deliver the REPLAYING dead letters now</source>
        <translation>立即投递处于 REPLAYING 的死信</translation>
    </message>
    <message>
        <source>Each is produced to its topic with its original event_id and marked REPLAYED once the broker acknowledges it.</source>
        <translation>每条死信都以原来的 event_id 发送到其主题，Broker 确认后标记为 REPLAYED。</translation>
    </message>
</context>
<context>
    <name>outbox::Runbook</name>
    <message>
        <source>No relay is registered with this database and table prefix: none was started, the relays stopped (a relay deregisters when it stops cleanly), or they use another database or table prefix.</source>
        <translation>没有中继注册到此数据库和表前缀：没有启动过中继、中继已停止（中继正常停止时会注销），或它们使用了其他数据库或表前缀。</translation>
    </message>
    <message>
        <source>The relays stopped or crashed: the last heartbeat came %1 s ago from %2 on %3.</source>
        <translation>中继已停止或崩溃：最后一次心跳来自 %3 上的 %2，在 %1 秒前。</translation>
    </message>
    <message>
        <source>The relays cannot reach the database (network, credentials, a failover), so they cannot claim events or send heartbeats.</source>
        <translation>中继无法连接数据库（网络、凭据、故障切换），因此无法认领事件或发送心跳。</translation>
    </message>
    <message>
        <source>The relays run against another database or another table prefix than the application.</source>
        <translation>中继连接的数据库或表前缀与应用不同。</translation>
    </message>
    <message>
        <source>Check the relay service on its hosts (e.g. systemctl status &apos;outbox-relay@*&apos; and its journal).</source>
        <translation>在中继所在的主机上检查中继服务（例如 systemctl status &apos;outbox-relay@*&apos; 及其日志）。</translation>
    </message>
    <message>
        <source>Start a relay against this database (prepared below, with the broker its relays publish to) or restart the service.</source>
        <translation>针对此数据库启动一个中继（已在下方准备好，使用其中继所发布到的 Broker），或重启该服务。</translation>
    </message>
    <message>
        <source>Make sure the relays use the same database URL and table prefix as the application.</source>
        <translation>确保中继使用与应用相同的数据库 URL 和表前缀。</translation>
    </message>
    <message>
        <source>Run outboxctl doctor again: this finding disappears once a relay sends heartbeats, and backlog-age shows whether the backlog drains.</source>
        <translation>再次运行 outboxctl doctor：中继发送心跳后此发现即消失，backlog-age 会显示积压是否在消化。</translation>
    </message>
    <message>
        <source>The relay process died without deregistering (killed, out of memory, its host went down).</source>
        <translation>中继进程未注销就退出了（被杀死、内存不足、所在主机宕机）。</translation>
    </message>
    <message>
        <source>The relay lost its database connection and cannot write its heartbeat.</source>
        <translation>中继丢失了数据库连接，无法写入心跳。</translation>
    </message>
    <message>
        <source>The relay hangs (e.g. blocked in a call to the broker) and its heartbeat thread stopped.</source>
        <translation>中继挂起了（例如阻塞在对 Broker 的调用中），其心跳线程已停止。</translation>
    </message>
    <message>
        <source>Look for the process on its host (host and pid are in the evidence) and read its log.</source>
        <translation>在其主机上查找该进程（主机和 PID 见证据）并阅读它的日志。</translation>
    </message>
    <message>
        <source>If it hangs, restart it; a relay that drains on SIGTERM finishes what it holds first.</source>
        <translation>如果它挂起了，就重启它；收到 SIGTERM 时排空的中继会先完成手头的工作。</translation>
    </message>
    <message>
        <source>Its %1 SENDING lease(s) expire and any running relay reaps them back to PENDING; expired-leases reports them if nobody does.</source>
        <translation>它持有的 %1 个 SENDING 租约会过期，任何运行中的中继都会把它们回收为 PENDING；如果没有中继这样做，expired-leases 会报告它们。</translation>
    </message>
    <message>
        <source>A relay that is gone for good keeps its registration: forget it (prepared below) so that this finding clears.</source>
        <translation>永久消失的中继仍保留着注册记录：清除它（已在下方准备好），此发现即可消除。</translation>
    </message>
    <message>
        <source>Connection blocked: RabbitMQ hit its memory or disk alarm and stops reading from every publishing connection until the alarm clears.</source>
        <translation>连接被阻塞：RabbitMQ 触发了内存或磁盘告警，在告警解除前停止读取所有发布连接。</translation>
    </message>
    <message>
        <source>RabbitMQ refuses the relay&apos;s login (wrong user or password, or the user may not use the vhost).</source>
        <translation>RabbitMQ 拒绝了中继的登录（用户名或密码错误，或该用户无权使用此 vhost）。</translation>
    </message>
    <message>
        <source>The relay cannot reach RabbitMQ: the broker is down or restarting, the network or a firewall blocks the way, or the address in [broker] url is wrong.</source>
        <translation>中继无法连接 RabbitMQ：Broker 已停止或正在重启，网络或防火墙阻断了连接，或 [broker] url 中的地址有误。</translation>
    </message>
    <message>
        <source>The brokers refuse the relay&apos;s credentials (wrong or expired SASL password, a rotated secret, a changed mechanism).</source>
        <translation>Broker 拒绝了中继的凭据（SASL 密码错误或过期、密钥已轮换、认证机制已更改）。</translation>
    </message>
    <message>
        <source>The TLS handshake with the brokers fails (an expired or untrusted certificate, a wrong CA file, a host name mismatch).</source>
        <translation>与 Broker 的 TLS 握手失败（证书过期或不受信任、CA 文件错误、主机名不匹配）。</translation>
    </message>
    <message>
        <source>The relay&apos;s principal lacks a cluster-level ACL the idempotent producer needs (IdempotentWrite).</source>
        <translation>中继的主体缺少幂等生产者所需的集群级 ACL（IdempotentWrite）。</translation>
    </message>
    <message>
        <source>The relay cannot reach any broker: the brokers are down, the network or a firewall blocks the way, or the bootstrap address is wrong.</source>
        <translation>中继无法连接任何 Broker：Broker 已停止，网络或防火墙阻断了连接，或 bootstrap 地址有误。</translation>
    </message>
    <message>
        <source>While DEGRADED a relay claims nothing: events stay PENDING and are sent once it recovers; none is lost.</source>
        <translation>处于 DEGRADED 时中继不认领任何事件：事件保持 PENDING，中继恢复后再发送；不会丢失任何事件。</translation>
    </message>
    <message>
        <source>Outside the product: on the broker, rabbitmq-diagnostics alarms and rabbitmqctl status show the alarm and the memory or disk use; drain or purge the queues that grew (consumers down?), or raise vm_memory_high_watermark or disk_free_limit if the machine allows.</source>
        <translation>在产品之外：在 Broker 上用 rabbitmq-diagnostics alarms 和 rabbitmqctl status 查看告警及内存或磁盘用量；排空或清理积压增长的队列（消费者停了？），或在机器允许时调高 vm_memory_high_watermark 或 disk_free_limit。</translation>
    </message>
    <message>
        <source>Outside the product: check the user in [broker] url and its password (OUTBOX_BROKER_PASSWORD or [amqp] password_file) with rabbitmqctl authenticate_user, and the vhost&apos;s permissions with rabbitmqctl list_permissions.</source>
        <translation>在产品之外：用 rabbitmqctl authenticate_user 检查 [broker] url 中的用户及其密码（OUTBOX_BROKER_PASSWORD 或 [amqp] password_file），用 rabbitmqctl list_permissions 检查该 vhost 的权限。</translation>
    </message>
    <message>
        <source>Outside the product: check that RabbitMQ runs (rabbitmq-diagnostics ping, rabbitmq-diagnostics listeners) and that the relay&apos;s host reaches its AMQP port (e.g. nc -vz BROKER 5672), and look at the relay&apos;s log.</source>
        <translation>在产品之外：检查 RabbitMQ 是否在运行（rabbitmq-diagnostics ping、rabbitmq-diagnostics listeners），中继所在主机能否连通其 AMQP 端口（例如 nc -vz BROKER 5672），并查看中继的日志。</translation>
    </message>
    <message>
        <source>Outside the product: check the relay&apos;s -X sasl.username / sasl.password (or its credential file) against the broker&apos;s users, and the broker&apos;s log for the rejected login.</source>
        <translation>在产品之外：对照 Broker 的用户检查中继的 -X sasl.username / sasl.password（或其凭据文件），并在 Broker 的日志中查看被拒绝的登录。</translation>
    </message>
    <message>
        <source>Outside the product: check the certificates&apos; dates and the relay&apos;s -X ssl.ca.location, and try openssl s_client -connect BROKER:PORT from the relay&apos;s host.</source>
        <translation>在产品之外：检查证书的有效期和中继的 -X ssl.ca.location，并在中继所在主机上尝试 openssl s_client -connect BROKER:PORT。</translation>
    </message>
    <message>
        <source>Outside the product: grant the relay&apos;s principal IdempotentWrite on the cluster (kafka-acls --add --allow-principal User:RELAY --operation IdempotentWrite --cluster).</source>
        <translation>在产品之外：为中继的主体授予集群的 IdempotentWrite 权限（kafka-acls --add --allow-principal User:RELAY --operation IdempotentWrite --cluster）。</translation>
    </message>
    <message>
        <source>Outside the product: check that the brokers run and that the relay&apos;s host reaches the bootstrap address (e.g. nc -vz BROKER PORT), and look at the relay&apos;s log.</source>
        <translation>在产品之外：检查 Broker 是否在运行，中继所在主机能否连通 bootstrap 地址（例如 nc -vz BROKER PORT），并查看中继的日志。</translation>
    </message>
    <message>
        <source>The relay probes the brokers by itself and returns to RUNNING when they answer; no restart is needed once the cause is fixed.</source>
        <translation>中继会自行探测 Broker，Broker 响应后即回到 RUNNING；原因修复后无需重启。</translation>
    </message>
    <message>
        <source>No relay is healthy: the backlog grows until this is fixed (see backlog-age).</source>
        <translation>没有健康的中继：在修复之前积压会持续增长（见 backlog-age）。</translation>
    </message>
    <message>
        <source>Run outboxctl doctor again to see the relays leave DEGRADED.</source>
        <translation>再次运行 outboxctl doctor，确认中继已离开 DEGRADED。</translation>
    </message>
    <message>
        <source>No relay is running (see no-relay).</source>
        <translation>没有中继在运行（见 no-relay）。</translation>
    </message>
    <message>
        <source>%1 relay(s) are paused by an operator: %2.</source>
        <translation>%1 个中继被运维人员暂停：%2。</translation>
    </message>
    <message>
        <source>%1 relay(s) are DEGRADED and claim nothing (see relay-degraded).</source>
        <translation>%1 个中继处于 DEGRADED，不认领任何事件（见 relay-degraded）。</translation>
    </message>
    <message>
        <source>%1 of the oldest %2 PENDING events wait for a retry after transient errors (their available_at is in the future).</source>
        <translation>最早的 %2 个 PENDING 事件中有 %1 个在暂时性错误后等待重试（其 available_at 在未来）。</translation>
    </message>
    <message>
        <source>The running relays do not keep up with the rate of new events (too few workers, slow broker acknowledgements, a slow database).</source>
        <translation>运行中的中继跟不上新事件的速度（工作线程太少、Broker 确认慢、数据库慢）。</translation>
    </message>
    <message>
        <source>In ordering mode, events wait behind a FAILED event of their aggregate (see blocked-aggregates).</source>
        <translation>在有序模式下，事件在其聚合的一个 FAILED 事件后面等待（见 blocked-aggregates）。</translation>
    </message>
    <message>
        <source>Start a relay against this database (prepared below), or restart the relay service.</source>
        <translation>针对此数据库启动一个中继（已在下方准备好），或重启中继服务。</translation>
    </message>
    <message>
        <source>If the pause is over, resume the paused relays (prepared below).</source>
        <translation>如果暂停已结束，让已暂停的中继继续运行（已在下方准备好）。</translation>
    </message>
    <message>
        <source>Read the relays&apos; logs for errors, and outboxctl status for their throughput.</source>
        <translation>阅读中继的日志查找错误，并用 outboxctl status 查看它们的吞吐量。</translation>
    </message>
    <message>
        <source>If the relays are busy but too slow, add workers (outboxctl relay --workers N) or more relay processes; they share the table safely.</source>
        <translation>如果中继很忙但太慢，增加工作线程（outboxctl relay --workers N）或更多中继进程；它们可以安全地共享同一张表。</translation>
    </message>
    <message>
        <source>Run outboxctl doctor again and watch the oldest age fall.</source>
        <translation>再次运行 outboxctl doctor，观察最早事件的等待时间下降。</translation>
    </message>
    <message>
        <source>No relay is running, and expired leases are returned to PENDING only by a running relay&apos;s reaper (see no-relay).</source>
        <translation>没有中继在运行，而过期租约只会由运行中中继的回收器退回 PENDING（见 no-relay）。</translation>
    </message>
    <message>
        <source>The running relays&apos; lease reaper fails (read their logs for &quot;reap&quot; errors, e.g. a lock timeout or missing privileges).</source>
        <translation>运行中中继的租约回收器出错（在日志中查找 “reap” 错误，例如锁超时或权限不足）。</translation>
    </message>
    <message>
        <source>The relay holding them died while sending: its lease ran out and no relay took the events back yet.</source>
        <translation>持有这些事件的中继在发送时退出了：其租约已到期，但还没有中继收回这些事件。</translation>
    </message>
    <message>
        <source>Make sure at least one relay runs: every relay reaps expired leases every half lease.</source>
        <translation>确保至少有一个中继在运行：每个中继每隔半个租约期回收一次过期租约。</translation>
    </message>
    <message>
        <source>Or requeue the SENDING events with an expired lease now (prepared below); events whose lease is still live are left alone, so a working relay keeps what it holds.</source>
        <translation>或者现在就重新入队租约已过期的 SENDING 事件（已在下方准备好）；租约仍有效的事件不受影响，正常工作的中继会保留它持有的事件。</translation>
    </message>
    <message>
        <source>Events that the dead relay may have delivered already are sent again with the same event_id: consumers with an inbox ignore the duplicate.</source>
        <translation>已退出的中继可能已经投递过的事件会以相同的 event_id 再次发送：带收件箱的消费者会忽略重复消息。</translation>
    </message>
    <message>
        <source>The relay that held them died or was cut off while sending, and no relay runs with claim_mode = held: only held relays reap this journal.</source>
        <translation>持有它们的中继在发送时退出或断开，且没有以 claim_mode = held 运行的中继：只有 held 模式的中继会回收此日志。</translation>
    </message>
    <message>
        <source>The held relays&apos; reaper fails (read their logs for &quot;reaping held claims failed&quot;, e.g. missing privileges on outbox_held_claims after an upgrade).</source>
        <translation>held 模式中继的回收器出错（在日志中查找 “reaping held claims failed”，例如升级后缺少 outbox_held_claims 的权限）。</translation>
    </message>
    <message>
        <source>Nothing is lost or stuck: the events went back to PENDING when their holder&apos;s connection closed, and relays send them again (consumers ignore the duplicate).</source>
        <translation>没有任何事件丢失或卡住：持有者的连接关闭时这些事件已回到 PENDING，中继会再次发送（消费者会忽略重复消息）。</translation>
    </message>
    <message>
        <source>What is missing is the attempt each of those batches began: until it is counted, an event that crashes every relay cannot reach its attempt limit and become DEAD.</source>
        <translation>缺少的是这些批次各自开始的那次尝试：在计数之前，一个每次都让中继崩溃的事件无法达到尝试上限而变为 DEAD。</translation>
    </message>
    <message>
        <source>Run at least one relay with --claim-mode held (or relay.claim_mode = held): it counts the attempts and removes the rows within a lease.</source>
        <translation>至少以 --claim-mode held（或 relay.claim_mode = held）运行一个中继：它会计入尝试次数，并在一个租约期内删除这些行。</translation>
    </message>
    <message>
        <source>A runtime role granted before migration 11 needs the grants printed by `outboxctl migrate --print-grants` again.</source>
        <translation>在迁移 11 之前授权的运行时角色需要重新执行 `outboxctl migrate --print-grants` 打印的授权语句。</translation>
    </message>
    <message>
        <source>An operator marked them DEAD (audit #%1: &quot;%2&quot;); this is a record of that decision.</source>
        <translation>运维人员已将它们标记为 DEAD（审计 #%1：“%2”）；这是该决定的记录。</translation>
    </message>
    <message>
        <source>The relays run in ordering mode (--ordering aggregate): an event is sent only after every earlier event of its aggregate, so a FAILED event holds back all later ones.</source>
        <translation>中继以有序模式运行（--ordering aggregate）：一个事件只有在其聚合中所有更早的事件发送后才会发送，因此一个 FAILED 事件会阻塞所有后续事件。</translation>
    </message>
    <message>
        <source>The FAILED event itself failed for a reason failed-events explains (a poison payload, a topic ACL, attempts exhausted).</source>
        <translation>该 FAILED 事件本身失败的原因见 failed-events（有毒载荷、主题 ACL、尝试次数用尽）。</translation>
    </message>
    <message>
        <source>List every blocked aggregate with its blocking event, since when and how many events wait: `outboxctl events blocked`, the console&apos;s Blocked page or GET /api/v1/events/blocked.</source>
        <translation>列出每个被阻塞的聚合及其阻塞事件、阻塞起始时间和等待的事件数：`outboxctl events blocked`、控制台的“阻塞”页面或 GET /api/v1/events/blocked。</translation>
    </message>
    <message>
        <source>Open the blocking event (samples) and read its error; failed-events has the cause-specific runbook for its group.</source>
        <translation>打开阻塞事件（样本）并阅读其错误；failed-events 中有针对其分组原因的处理手册。</translation>
    </message>
    <message>
        <source>Fix the cause, then requeue the blocking events (prepared below): they are sent first, and the waiting events of their aggregates follow in order.</source>
        <translation>修复原因，然后重新入队阻塞事件（已在下方准备好）：它们会被优先发送，其聚合中等待的事件按顺序跟进。</translation>
    </message>
    <message>
        <source>If a blocking event must never be sent, mark it DEAD (prepared below): the waiting events of its aggregate are then sent after it, without it. Make sure the consumers can live with the gap in that aggregate&apos;s history.</source>
        <translation>如果某个阻塞事件永远不应被发送，就将它标记为 DEAD（已在下方准备好）：其聚合中等待的事件随后会在没有它的情况下发送。请确保消费者能接受该聚合历史中的这个缺口。</translation>
    </message>
    <message>
        <source>Consumer %1 gave up on these messages: the handler failed for good (a poison message, missing reference data, a bug) or its retries ran out.</source>
        <translation>消费者 %1 放弃了这些消息：处理程序永久失败（有毒消息、缺少参考数据、缺陷）或重试次数已用尽。</translation>
    </message>
    <message>
        <source>The messages stay in dead_letters with their original bytes, key and headers; nothing retries them on its own.</source>
        <translation>这些消息连同原始字节、键和消息头保留在 dead_letters 中；不会有任何机制自动重试它们。</translation>
    </message>
    <message>
        <source>Open a sample dead letter and read its error, payload and context.</source>
        <translation>打开一条样本死信，阅读其错误、载荷和上下文。</translation>
    </message>
    <message>
        <source>Outside the product: fix the consumer or the data it missed (deploy the fix, add the reference data).</source>
        <translation>在产品之外：修复消费者或它缺少的数据（部署修复、补充参考数据）。</translation>
    </message>
    <message>
        <source>Replay the group (prepared below): a running relay produces the messages again to their topic with their original event_id, and the consumer&apos;s inbox keeps it idempotent.</source>
        <translation>重放该分组（已在下方准备好）：运行中的中继会以原来的 event_id 把消息再次发送到其主题，消费者的收件箱保证幂等。</translation>
    </message>
    <message>
        <source>If the messages are not needed any more, discard them (prepared below); the decision stays in the audit log.</source>
        <translation>如果这些消息已不再需要，就丢弃它们（已在下方准备好）；该决定会保留在审计日志中。</translation>
    </message>
    <message>
        <source>No relay is running, and REPLAYING dead letters are delivered by a running relay (every second) or by outboxctl dlq replay --deliver.</source>
        <translation>没有中继在运行，而 REPLAYING 的死信由运行中的中继（每秒）或 outboxctl dlq replay --deliver 投递。</translation>
    </message>
    <message>
        <source>The relays try to deliver them and fail: the replay topic is unknown or not writable, or the relays are DEGRADED (read the relays&apos; logs for &quot;replay&quot;).</source>
        <translation>中继尝试投递它们但失败了：重放主题未知或不可写，或中继处于 DEGRADED（在中继的日志中查找 “replay”）。</translation>
    </message>
    <message>
        <source>A replay to another topic names a topic that does not exist.</source>
        <translation>重放到另一个主题时指定了不存在的主题。</translation>
    </message>
    <message>
        <source>Check that a relay runs (no-relay, relay-degraded) and read its log for replay errors.</source>
        <translation>检查是否有中继在运行（no-relay、relay-degraded），并在其日志中查找重放错误。</translation>
    </message>
    <message>
        <source>Deliver them now without a relay (prepared below, with the broker this database&apos;s relays publish to); the command says which dead letters fail and why.</source>
        <translation>不经中继立即投递它们（已在下方准备好，使用此数据库的中继所发布到的 Broker）；该命令会说明哪些死信失败及原因。</translation>
    </message>
    <message>
        <source>If the topic is wrong, fix it outside the product (create it, grant the ACL); a replay that finally goes out marks the dead letters REPLAYED.</source>
        <translation>如果主题有误，在产品之外修正它（创建主题、授予 ACL）；重放最终发出后，死信会被标记为 REPLAYED。</translation>
    </message>
    <message>
        <source>Consumer %1 is not running, or lags far behind (its consumer group&apos;s lag shows it).</source>
        <translation>消费者 %1 没有运行，或严重滞后（其消费者组的 lag 可以看出）。</translation>
    </message>
    <message>
        <source>The consumer received the events and dead-lettered them (see dead-letters for %1).</source>
        <translation>消费者收到了这些事件并把它们放入了死信（见 %1 的 dead-letters）。</translation>
    </message>
    <message>
        <source>The consumer subscribes to other topics than the events were sent to.</source>
        <translation>消费者订阅的主题与事件发送到的主题不同。</translation>
    </message>
    <message>
        <source>The consumer writes its inbox to another database than this one.</source>
        <translation>消费者把收件箱写到了另一个数据库，而不是此数据库。</translation>
    </message>
    <message>
        <source>Check that consumer %1 runs and look at its consumer-group lag (kafka-consumer-groups --describe --group GROUP).</source>
        <translation>检查消费者 %1 是否在运行，并查看其消费者组的 lag（kafka-consumer-groups --describe --group GROUP）。</translation>
    </message>
    <message>
        <source>Look for dead letters of %1 (outboxctl dlq list --consumer %1).</source>
        <translation>查找 %1 的死信（outboxctl dlq list --consumer %1）。</translation>
    </message>
    <message>
        <source>List every unconsumed event, beyond this check&apos;s window (prepared below).</source>
        <translation>列出所有未消费的事件，不限于本检查的时间窗口（已在下方准备好）。</translation>
    </message>
    <message>
        <source>A writer sets status = &apos;SENT&apos; in its INSERT, or a script updated events to SENT by hand instead of requeueing or marking them DEAD.</source>
        <translation>写入方在 INSERT 中设置了 status = &apos;SENT&apos;，或某个脚本手动把事件改为 SENT，而不是重新入队或标记为 DEAD。</translation>
    </message>
    <message>
        <source>A writer sets status = &apos;SENDING&apos; in its INSERT, or a script changed status by hand without the relay&apos;s lease columns.</source>
        <translation>写入方在 INSERT 中设置了 status = &apos;SENDING&apos;，或某个脚本手动修改了状态却没有设置中继的租约列。</translation>
    </message>
    <message>
        <source>The writer leaves topic NULL for aggregate or event types that are no valid topic name once put in the template (letters, digits, . _ - only).</source>
        <translation>写入方把 topic 留空（NULL），而这些聚合类型或事件类型代入模板后不是有效的主题名（只允许字母、数字和 . _ -）。</translation>
    </message>
    <message>
        <source>A consumer writes its own statuses (e.g. RECEIVED, DONE) into the inbox table.</source>
        <translation>某个消费者把自己的状态（例如 RECEIVED、DONE）写入了收件箱表。</translation>
    </message>
    <message>
        <source>A writer inserts only event_id, event_type, aggregate_type, aggregate_id and payload (and may set topic, headers, aggregate_version, schema_version, available_at); status, attempts, leases and sent_at belong to the relay (docs/contract.md).</source>
        <translation>写入方只插入 event_id、event_type、aggregate_type、aggregate_id 和 payload（可以设置 topic、headers、aggregate_version、schema_version、available_at）；status、attempts、租约和 sent_at 由中继负责（docs/contract.md）。</translation>
    </message>
    <message>
        <source>Fix the writer: leave status to its default (PENDING).</source>
        <translation>修复写入方：让 status 使用默认值（PENDING）。</translation>
    </message>
    <message>
        <source>Send the events (prepared below): they go back to PENDING and the relay publishes them with their own event_id; an inbox skips any a consumer already has.</source>
        <translation>发送这些事件（已在下方准备好）：它们回到 PENDING，中继以它们自己的 event_id 发布；收件箱会跳过消费者已有的事件。</translation>
    </message>
    <message>
        <source>Requeue the events (prepared below): no relay holds them, so forcing takes nothing from a working relay.</source>
        <translation>重新入队这些事件（已在下方准备好）：没有中继持有它们，所以强制操作不会影响正常工作的中继。</translation>
    </message>
    <message>
        <source>Set topic in the writer&apos;s INSERT, or change relay.topic_template so that it makes a valid name of these types (%1); then requeue the FAILED ones (outboxctl requeue --status FAILED).</source>
        <translation>在写入方的 INSERT 中设置 topic，或修改 relay.topic_template，使其能从这些类型（%1）生成有效的名称；然后重新入队 FAILED 的事件（outboxctl requeue --status FAILED）。</translation>
    </message>
    <message>
        <source>Fix the consumer: PROCESSED in the transaction of its effect, FAILED with the dead letter (docs/contract.md, &quot;Inbox contract&quot;); until then reconcile counts these events as unprocessed.</source>
        <translation>修复消费者：在其业务效果所在的事务中写 PROCESSED，连同死信写 FAILED（docs/contract.md，“Inbox contract”）；在此之前 reconcile 会把这些事件计为未处理。</translation>
    </message>
    <message>
        <source>Every status change of an outbox row leaves a dead tuple; autovacuum&apos;s defaults (vacuum at 20% of the table) let a busy queue table bloat.</source>
        <translation>发件箱行的每次状态变化都会留下一个死元组；autovacuum 的默认值（表的 20% 时才清理）会让繁忙的队列表膨胀。</translation>
    </message>
    <message>
        <source>Autovacuum is off (server setting or the table&apos;s autovacuum_enabled).</source>
        <translation>autovacuum 已关闭（服务器设置或表的 autovacuum_enabled）。</translation>
    </message>
    <message>
        <source>A long-running transaction (or an abandoned replication slot) holds back the cleanup horizon, so vacuum cannot remove the dead rows.</source>
        <translation>一个长时间运行的事务（或被遗弃的复制槽）阻止了清理水位线前移，因此 vacuum 无法删除死行。</translation>
    </message>
    <message>
        <source>Autovacuum was turned off on the server or for this table; every status change of an outbox row leaves a dead tuple that nothing removes.</source>
        <translation>autovacuum 在服务器上或针对此表被关闭；发件箱行的每次状态变化都会留下一个无人清理的死元组。</translation>
    </message>
    <message>
        <source>No relay runs the retention cleanup (it runs inside every relay).</source>
        <translation>没有中继运行保留期清理（清理在每个中继内部运行）。</translation>
    </message>
    <message>
        <source>The relays run with --retention 0 (keep everything) or a longer window than [doctor] retention.</source>
        <translation>中继以 --retention 0（全部保留）运行，或其保留期长于 [doctor] retention。</translation>
    </message>
    <message>
        <source>The cleanup deletes in bounded batches and falls behind a very high event rate.</source>
        <translation>清理按有限的批次删除，跟不上非常高的事件速率。</translation>
    </message>
    <message>
        <source>Outside the product (psql): look for old transactions: SELECT pid, now() - xact_start, state, query FROM pg_stat_activity ORDER BY xact_start LIMIT 5; end those that should not be there.</source>
        <translation>在产品之外（psql）：查找长事务：SELECT pid, now() - xact_start, state, query FROM pg_stat_activity ORDER BY xact_start LIMIT 5; 结束那些不应存在的事务。</translation>
    </message>
    <message>
        <source>Vacuum the table now: %1</source>
        <translation>现在对该表执行 vacuum：%1</translation>
    </message>
    <message>
        <source>Outside the product (psql): turn autovacuum back on (ALTER TABLE %1 RESET (autovacuum_enabled), or autovacuum = on in postgresql.conf).</source>
        <translation>在产品之外（psql）：重新开启 autovacuum（ALTER TABLE %1 RESET (autovacuum_enabled)，或在 postgresql.conf 中设置 autovacuum = on）。</translation>
    </message>
    <message>
        <source>Make autovacuum keep up with a queue table: %1</source>
        <translation>让 autovacuum 跟上队列表：%1</translation>
    </message>
    <message>
        <source>Run outboxctl doctor again after the vacuum.</source>
        <translation>vacuum 之后再次运行 outboxctl doctor。</translation>
    </message>
    <message>
        <source>Check the relays&apos; --retention against [doctor] retention; set them to the same value.</source>
        <translation>对照 [doctor] retention 检查中继的 --retention；把它们设为相同的值。</translation>
    </message>
    <message>
        <source>Make sure a relay runs: it deletes SENT rows older than its retention in batches.</source>
        <translation>确保有中继在运行：它会分批删除早于其保留期的 SENT 行。</translation>
    </message>
    <message>
        <source>If the backlog of old rows is huge, delete it in batches outside peak hours (or drop old partitions where the table is partitioned).</source>
        <translation>如果旧行积压非常多，就在非高峰时段分批删除（或在表已分区时删除旧分区）。</translation>
    </message>
    <message>
        <source>This binary was upgraded but outboxctl migrate was not run against this database.</source>
        <translation>此程序已升级，但没有对此数据库运行 outboxctl migrate。</translation>
    </message>
    <message>
        <source>The application, the relays and this tool use different table prefixes or databases.</source>
        <translation>应用、中继和本工具使用了不同的表前缀或数据库。</translation>
    </message>
    <message>
        <source>Read what the migrations change in the release notes; they are idempotent and upgrade an existing database in place.</source>
        <translation>在发布说明中阅读迁移会做哪些修改；迁移是幂等的，会就地升级现有数据库。</translation>
    </message>
    <message>
        <source>Run the migration (prepared below) with an account that may change the schema.</source>
        <translation>用有权修改 schema 的账号运行迁移（已在下方准备好）。</translation>
    </message>
    <message>
        <source>Restart the relays and consoles of older versions after the migration.</source>
        <translation>迁移之后重启旧版本的中继和控制台。</translation>
    </message>
    <message>
        <source>The database cannot be reached from the server that runs outboxctl serve.</source>
        <translation>运行 outboxctl serve 的服务器无法连接数据库。</translation>
    </message>
    <message>
        <source>The role of outboxctl serve lacks a privilege a check needs (e.g. after an upgrade added a table).</source>
        <translation>outboxctl serve 的角色缺少某项检查所需的权限（例如升级新增了一张表之后）。</translation>
    </message>
    <message>
        <source>The schema is outdated or missing (see schema-outdated).</source>
        <translation>schema 已过时或不存在（见 schema-outdated）。</translation>
    </message>
    <message>
        <source>Run outboxctl doctor --timings against the same database and configuration: failed checks are printed on stderr with their error.</source>
        <translation>用相同的数据库和配置运行 outboxctl doctor --timings：失败的检查会连同错误打印到 stderr。</translation>
    </message>
    <message>
        <source>Fix what the error names (connection, grants from outboxctl migrate --print-grants, outboxctl migrate), then watch outbox_diagnosis_up return to 1.</source>
        <translation>修复错误指出的问题（连接、outboxctl migrate --print-grants 给出的授权、outboxctl migrate），然后观察 outbox_diagnosis_up 回到 1。</translation>
    </message>
    <message>
        <source>outboxctl serve does not run (its unit failed or was stopped).</source>
        <translation>outboxctl serve 没有运行（其单元失败或被停止）。</translation>
    </message>
    <message>
        <source>Prometheus does not scrape its /metrics, or sends no or a wrong viewer token (401).</source>
        <translation>Prometheus 没有抓取其 /metrics，或没有发送 viewer 令牌、发送了错误的令牌（401）。</translation>
    </message>
    <message>
        <source>Check that outboxctl serve runs: systemctl status &apos;outbox-serve@*&apos; and its journal.</source>
        <translation>检查 outboxctl serve 是否在运行：systemctl status &apos;outbox-serve@*&apos; 及其日志。</translation>
    </message>
    <message>
        <source>Check the scrape target in Prometheus (Status › Targets): the address, and a viewer token as bearer token.</source>
        <translation>在 Prometheus 中检查抓取目标（Status › Targets）：地址，以及作为 bearer token 的 viewer 令牌。</translation>
    </message>
    <message>
        <source>Meanwhile run outboxctl doctor by hand against the database.</source>
        <translation>在此期间手动对该数据库运行 outboxctl doctor。</translation>
    </message>
    <message>
        <source>The database server is down, restarting or failing over.</source>
        <translation>数据库服务器已停止、正在重启或正在故障切换。</translation>
    </message>
    <message>
        <source>The network between the server of outboxctl serve and the database drops or black-holes the connection (firewall, routing, DNS).</source>
        <translation>outboxctl serve 所在服务器与数据库之间的网络断开或吞掉了连接（防火墙、路由、DNS）。</translation>
    </message>
    <message>
        <source>The database refuses the login: a changed password (OUTBOX_DB_PASSWORD_&lt;MEMBER&gt; or the member&apos;s password_file), a dropped role, too many connections.</source>
        <translation>数据库拒绝登录：密码已更改（OUTBOX_DB_PASSWORD_&lt;MEMBER&gt; 或该成员的 password_file）、角色已删除、连接数过多。</translation>
    </message>
    <message>
        <source>The database answers slower than the fleet&apos;s timeout (overload, locks).</source>
        <translation>数据库的响应慢于集群的超时时间（过载、锁）。</translation>
    </message>
    <message>
        <source>Run outboxctl status --fleet FILE on the server of outboxctl serve: the member&apos;s line carries the error (connection refused, timeout, authentication).</source>
        <translation>在 outboxctl serve 所在服务器上运行 outboxctl status --fleet FILE：该成员那一行带有错误（连接被拒绝、超时、认证失败）。</translation>
    </message>
    <message>
        <source>Run outboxctl doctor --fleet FILE --member NAME to connect to that member alone and see the whole error.</source>
        <translation>运行 outboxctl doctor --fleet FILE --member NAME 单独连接该成员，查看完整错误。</translation>
    </message>
    <message>
        <source>Fix what the error names; the member turns healthy on the wall within one fleet interval once it answers (a member that failed twice is retried with backoff, at most 5 minutes).</source>
        <translation>修复错误指出的问题；成员响应后，一个集群周期内就会在总览墙上恢复健康（失败两次的成员会按退避重试，最长间隔 5 分钟）。</translation>
    </message>
    <message>
        <source>Consumer %1 has not recorded the topics it subscribes to (a consumer of another make, or one on RabbitMQ without [consumer] topics): events of every topic are counted.</source>
        <translation>消费者 %1 没有记录它订阅的主题（其他实现的消费者，或 RabbitMQ 上未设置 [consumer] topics 的消费者）：所有主题的事件都会被计入。</translation>
    </message>
    <message>
        <source>If the events were lost on the way (e.g. a topic was deleted and recreated), send them again (prepared below): the consumer&apos;s inbox ignores any it already processed. Events with a dead letter of the consumer, or one an operator discarded, are never sent again: decide their dead letters instead.</source>
        <translation>如果事件在途中丢失（例如某个主题被删除后重建），就再次发送它们（已在下方准备好）：消费者的收件箱会忽略已处理过的事件。该消费者有死信的事件、或其死信已被运维人员丢弃的事件，永远不会被再次发送：请改为处理它们的死信。</translation>
    </message>
    <message>
        <source>An operator switched notifications on with outboxctl notify on (the audit log keeps who, when and why: outboxctl audit --action notify.on), and more than one writer now commits at a time.</source>
        <translation>运维人员用 outboxctl notify on 开启了通知（审计日志记录了操作人、时间和原因：outboxctl audit --action notify.on），而现在有多个写入方同时提交。</translation>
    </message>
    <message>
        <source>The trigger was enabled with SQL (ALTER TABLE … ENABLE TRIGGER) or by a script; nothing recorded why.</source>
        <translation>有人用 SQL（ALTER TABLE … ENABLE TRIGGER）或某个脚本启用了触发器；没有记录原因。</translation>
    </message>
    <message>
        <source>Every writing service&apos;s commit waits here: its commit rate is capped at about one notifying commit per WAL flush of the server, whatever the machine.</source>
        <translation>每个写入服务的提交都在这里等待：无论机器多强，其提交速率都被限制在服务器每次 WAL 刷盘大约一次带通知的提交。</translation>
    </message>
    <message>
        <source>Switch back to the default, as the schema owner: outboxctl notify off --reason TEXT --yes. Running relays notice within a heartbeat and wake by the doorbell or by polling (relay.poll_ms); nothing is lost.</source>
        <translation>以 schema 所有者身份切回默认设置：outboxctl notify off --reason TEXT --yes。运行中的中继会在一个心跳周期内察觉，并改由门铃或轮询（relay.poll_ms）唤醒；不会丢失任何事件。</translation>
    </message>
    <message>
        <source>Keep notifications on only where a single writer commits at a time and the lowest idle latency matters more than the writers&apos; throughput.</source>
        <translation>只有在同一时间只有一个写入方提交、且最低的空闲延迟比写入吞吐量更重要时，才保持通知开启。</translation>
    </message>
    <message>
        <source>When the payload itself is the cause (a typo, a wrong value, a missing field), repair the group&apos;s payloads before replaying, or the replay makes the same dead letters again: one JSON change for the whole group, every diff previewed, with a reason (outboxctl dlq edit-group --consumer NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run, then without --dry-run). Each letter keeps its original and the edit is audited in chunks.</source>
        <translation>当载荷本身就是原因（拼写错误、错误的值、缺少字段）时，请在重放前修复该分组的载荷，否则重放会再次产生同样的死信：对整个分组做一次 JSON 更改，预览每一处差异，并填写原因（outboxctl dlq edit-group --consumer NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run，然后去掉 --dry-run）。每条死信都保留其原始消息，编辑按分块记入审计。</translation>
    </message>
    <message>
        <source>The broker took the connection but does not answer: it hangs, is overloaded, or a proxy or load balancer in between holds the connection without passing anything on.</source>
        <translation>代理接受了连接但不应答：它挂起或过载，或者中间的代理服务器、负载均衡器占着连接却不转发任何内容。</translation>
    </message>
    <message>
        <source>Outside the product: check the broker&apos;s health and load (rabbitmq-diagnostics status, or the Kafka brokers&apos; logs) and anything between the relay and the broker (proxy, load balancer, firewall that drops packets), and look at the relay&apos;s log.</source>
        <translation>在产品之外：检查代理的健康状况和负载（rabbitmq-diagnostics status，或 Kafka 代理的日志）以及中继与代理之间的一切（代理服务器、负载均衡器、丢包的防火墙），并查看中继的日志。</translation>
    </message>
    <message>
        <source>Fix the broker, not the relay: do not start another relay (it cannot publish either) and do not forget this one (it is alive and registers again at its next heartbeat).</source>
        <translation>修复代理，而不是中继：不要再启动一个中继（它同样无法发布），也不要注销这个中继（它仍然存活，下一次心跳时会重新注册）。</translation>
    </message>
    <message>
        <source>The writer stores a payload that is no JSON object or array (text that is not JSON, or a bare string or number), or headers that are no JSON object (an array, a string): text columns cannot refuse them, nor PostgreSQL before schema 18.</source>
        <translation>写入方存入的 payload 不是 JSON 对象或数组（非 JSON 文本，或单独的字符串、数字），或 headers 不是 JSON 对象（数组、字符串）：文本列无法拒绝它们，schema 18 之前的 PostgreSQL 也不能。</translation>
    </message>
    <message>
        <source>The writer puts a member named like one of the relay&apos;s own headers (event_id, event_type, aggregate_type, aggregate_id, schema_version, aggregate_version, x-replay-*, x-replayed-by) into headers; the relay drops it and sends its own.</source>
        <translation>写入方在 headers 中放入了与中继自身消息头同名的成员（event_id、event_type、aggregate_type、aggregate_id、schema_version、aggregate_version、x-replay-*、x-replayed-by）；中继会丢弃它，只发送自己的值。</translation>
    </message>
    <message>
        <source>A writer writes local time into UTC columns: MariaDB/MySQL NOW(6) or CURRENT_TIMESTAMP(6) in a session whose time_zone is not +00:00 (DATETIME has no zone), or a time taken from the application&apos;s clock in its own zone. The relay claims the event only when available_at has come.</source>
        <translation>写入方把本地时间写进了 UTC 列：在 time_zone 不是 +00:00 的会话中使用 MariaDB/MySQL 的 NOW(6) 或 CURRENT_TIMESTAMP(6)（DATETIME 不带时区），或使用应用自身时区的时钟时间。中继只在 available_at 到达后才认领该事件。</translation>
    </message>
    <message>
        <source>Fix the writer: payload is a JSON object or array, headers a JSON object whose values are strings. Consumers refuse such messages into their dead letters; mark these events DEAD if nobody should receive them (prepared below).</source>
        <translation>修复写入方：payload 必须是 JSON 对象或数组，headers 必须是值为字符串的 JSON 对象。消费者会把这样的消息拒收到死信中；如果不应有人收到这些事件，就把它们标记为 DEAD（已在下方准备好）。</translation>
    </message>
    <message>
        <source>Fix the writer: rename the header (e.g. order_event_id). Consumers see only the relay&apos;s value of these names (docs/contract.md, &quot;Headers&quot;).</source>
        <translation>修复写入方：为该消息头改名（例如 order_event_id）。对于这些名称，消费者只会看到中继的值（docs/contract.md，“Headers”）。</translation>
    </message>
    <message>
        <source>Fix the writer: leave available_at and created_at to their defaults, or write UTC (MariaDB/MySQL: UTC_TIMESTAMP(6), or SET time_zone = &apos;+00:00&apos; in the session). To send the events already written now: outboxctl dead ID… then outboxctl requeue ID… (both audited; a requeue sets available_at to now).</source>
        <translation>修复写入方：让 available_at 和 created_at 使用默认值，或写入 UTC 时间（MariaDB/MySQL：UTC_TIMESTAMP(6)，或在会话中执行 SET time_zone = &apos;+00:00&apos;）。要立即发送已写入的事件：先 outboxctl dead ID…，再 outboxctl requeue ID…（两者都会审计；requeue 会把 available_at 设为现在）。</translation>
    </message>
    <message>
        <source>The consumer refused the messages themselves, not a passing failure: when their payload is the cause (a typo, a wrong value, a missing field), replaying them as they are makes the same dead letters again.</source>
        <translation>消费者拒绝的是消息本身，而不是暂时的失败：如果原因在于载荷（拼写错误、错误的值、缺少字段），原样重放只会再次产生同样的死信。</translation>
    </message>
    <message>
        <source>Before any replay, find out whether the payload is the cause. When it is (a typo, a wrong value, a missing field), repair the group&apos;s payloads first (prepared below): one JSON change for the whole group, every diff previewed, with a reason (outboxctl dlq edit-group --consumer NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run, then without --dry-run). Each letter keeps its original and the edit is audited in chunks.</source>
        <translation>重放之前，先确认原因是否在于载荷。如果是（拼写错误、错误的值、缺少字段），先修复该分组的载荷（已在下方准备好）：对整个分组做一次 JSON 更改，预览每处差异，并填写原因（outboxctl dlq edit-group --consumer NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run，然后去掉 --dry-run）。每条死信都保留其原始消息，编辑按批次记入审计日志。</translation>
    </message>
    <message>
        <source>Then, once the payloads are repaired or the consumer is fixed, replay the group (prepared below): a running relay produces the messages again to their topic with their original event_id, and the consumer&apos;s inbox keeps it idempotent.</source>
        <translation>载荷修复或消费者修好之后，再重放该分组（已在下方准备好）：运行中的中继会以原来的 event_id 把消息再次发送到其主题，消费者的收件箱保证幂等。</translation>
    </message>
</context>
<context>
    <name>outbox::SchemaOutdatedCheck</name>
    <message>
        <source>The database has no outbox schema (this binary expects version %1)</source>
        <translation>数据库中没有 outbox schema（此程序需要版本 %1）</translation>
    </message>
    <message>
        <source>The outbox schema is at version %1 of %2</source>
        <translation>outbox schema 处于版本 %1，最新为 %2</translation>
    </message>
    <message>
        <source>Migrate the schema to version %1</source>
        <translation>将 schema 迁移到版本 %1</translation>
    </message>
    <message>
        <source>The missing migrations are applied in order and recorded; running it twice is a no-op.</source>
        <translation>缺少的迁移会按顺序执行并记录；重复运行不会产生任何效果。</translation>
    </message>
</context>
<context>
    <name>outbox::Severity</name>
    <message>
        <source>INFO</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>WARNING</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>CRITICAL</source>
        <translation>严重</translation>
    </message>
</context>
<context>
    <name>outbox::TableHealthCheck</name>
    <message>
        <source>%1 is %2% dead tuples (%3 dead rows, %4 in all)</source>
        <translation>%1 中死元组占 %2%（%3 个死行，共 %4 行）</translation>
    </message>
    <message>
        <source>Autovacuum is off for %1</source>
        <translation>%1 的 autovacuum 已关闭</translation>
    </message>
    <message>
        <source>%1%2 SENT event(s) are older than the retention of %3</source>
        <translation>%1%2 个 SENT 事件早于保留期 %3</translation>
    </message>
    <message>
        <source>at least </source>
        <translation>至少 </translation>
    </message>
</context>
<context>
    <name>outbox::UnconsumedCheck</name>
    <message>
        <source>no consumer configured ([doctor] consumers)</source>
        <translation>未配置消费者（[doctor] consumers）</translation>
    </message>
    <message>
        <source>%1 event(s) SENT over %2 ago are not processed by consumer %3</source>
        <translation>%1 个发送超过 %2 的事件未被消费者 %3 处理</translation>
    </message>
    <message>
        <source>List every event %1 has not processed</source>
        <translation>列出 %1 尚未处理的所有事件</translation>
    </message>
    <message>
        <source>Send the %1 unprocessed event(s) again</source>
        <translation>再次发送 %1 个未处理的事件</translation>
    </message>
    <message>
        <source> (%1 of them created before the %2 window)</source>
        <translation>（其中 %1 个创建于 %2 窗口之前）</translation>
    </message>
    <message>
        <source>; events older than the window and the %1 before it not checked</source>
        <translation>；早于窗口的事件以及之前的 %1 未检查</translation>
    </message>
    <message>
        <source>Read-only: lists every unprocessed event, however old, a page at a time (--after-id continues).</source>
        <translation>只读：分页列出所有未处理的事件，无论多旧（用 --after-id 继续）。</translation>
    </message>
    <message>
        <source>The SENT events go back to PENDING and are produced again with their original event_id; every consumer receives them again, and an inbox skips what it has. Events with a dead letter of %1, or a discarded one of any consumer, are left out.</source>
        <translation>SENT 事件回到 PENDING，以原来的 event_id 再次发送；每个消费者都会再次收到它们，收件箱会跳过已有的事件。%1 有死信的事件、或任何消费者已丢弃其死信的事件不包括在内。</translation>
    </message>
</context>
<context>
    <name>outbox::cli::Context</name>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
</context>
<context>
    <name>outbox::cli::Doctor</name>
    <message>
        <source>evidence: %1 %2</source>
        <translation>证据：%1 %2</translation>
    </message>
    <message>
        <source>; oldest %1</source>
        <translation>；最早 %1</translation>
    </message>
    <message>
        <source>; newest %1</source>
        <translation>；最新 %1</translation>
    </message>
    <message>
        <source>samples (%1): %2</source>
        <translation>样本（%1）：%2</translation>
    </message>
    <message>
        <source>why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>what to do:</source>
        <translation>处理步骤：</translation>
    </message>
    <message>
        <source>prepared actions:</source>
        <translation>准备好的操作：</translation>
    </message>
    <message>
        <source>(no command: %1)</source>
        <translation>（无命令：%1）</translation>
    </message>
    <message>
        <source>no findings</source>
        <translation>没有发现</translation>
    </message>
    <message>
        <source>%1 critical, %2 warning, %3 info</source>
        <translation>%1 个严重，%2 个警告，%3 个信息</translation>
    </message>
    <message>
        <source> (%1 of %2 checks in %3 ms)</source>
        <translation>（运行了 %2 项检查中的 %1 项，用时 %3 毫秒）</translation>
    </message>
    <message>
        <source>%1 UTC (%2 ago)</source>
        <translation>%1 UTC（%2 前）</translation>
    </message>
    <message>
        <source>error_class</source>
        <translation>错误类别</translation>
    </message>
    <message>
        <source>example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>last_error</source>
        <translation>最后错误</translation>
    </message>
    <message>
        <source>%1 UTC (just now)</source>
        <translation>%1 UTC（刚刚）</translation>
    </message>
    <message>
        <source>payload</source>
        <translation>载荷</translation>
    </message>
</context>
<context>
    <name>outbox::cli::Notify</name>
    <message>
        <source>notifications: none (this database has no wake-up trigger; relays poll it, relay.poll_ms)</source>
        <translation>通知：无（此数据库没有唤醒触发器；中继对它轮询，relay.poll_ms）</translation>
    </message>
    <message>
        <source>notifications: none (the trigger %1 on %2 is missing: run outboxctl migrate as the schema owner)</source>
        <translation>通知：无（%2 上的触发器 %1 不存在：请以 schema 所有者身份运行 outboxctl migrate）</translation>
    </message>
    <message>
        <source>notifications: on (every INSERT of events wakes the relays; trigger %1 on %2)</source>
        <translation>通知：开启（每次插入事件都会唤醒中继；%2 上的触发器 %1）</translation>
    </message>
    <message>
        <source>notifications: off (relays poll: up to relay.poll_ms after an idle spell; trigger %1 on %2 disabled)</source>
        <translation>通知：关闭（中继轮询：空闲一段时间后最多等待 relay.poll_ms；%2 上的触发器 %1 已禁用）</translation>
    </message>
    <message>
        <source>last switched %1 at %2 by %3: %4</source>
        <translation>最近一次切换为 %1：%2，操作人 %3：%4</translation>
    </message>
    <message>
        <source>a reason is required (--reason)</source>
        <translation>必须填写原因（--reason）</translation>
    </message>
    <message>
        <source>refusing to switch notifications %1 without confirmation: pass --yes</source>
        <translation>未经确认，拒绝将通知切换为 %1：请加上 --yes</translation>
    </message>
    <message>
        <source>Switch the wake-up notifications %1? Type yes to confirm: </source>
        <translation>将唤醒通知切换为 %1？输入 yes 确认：</translation>
    </message>
    <message>
        <source>not confirmed; nothing changed</source>
        <translation>未确认；未做任何更改</translation>
    </message>
    <message>
        <source>this database has no wake-up trigger: relays poll it already; nothing changed</source>
        <translation>此数据库没有唤醒触发器：中继已经在轮询；未做任何更改</translation>
    </message>
    <message>
        <source>notifications are already %1 (trigger %2 on %3); nothing changed</source>
        <translation>通知已经是 %1（%3 上的触发器 %2）；未做任何更改</translation>
    </message>
    <message>
        <source>notifications on: trigger %1 on %2 enabled (audit #%3); relays that LISTEN are woken by every commit again</source>
        <translation>通知已开启：%2 上的触发器 %1 已启用（审计 #%3）；LISTEN 的中继会再次被每次提交唤醒</translation>
    </message>
    <message>
        <source>notifications off: trigger %1 on %2 disabled (audit #%3); writers commit without NOTIFY, relays poll (relay.poll_min_ms doubling up to relay.poll_ms while idle)</source>
        <translation>通知已关闭：%2 上的触发器 %1 已禁用（审计 #%3）；写入方提交时不再 NOTIFY，中继改为轮询（空闲时从 relay.poll_min_ms 逐次加倍，最多到 relay.poll_ms）</translation>
    </message>
    <message>
        <source>notify %1 takes no further arguments</source>
        <translation>notify %1 不接受更多参数</translation>
    </message>
    <message>
        <source>--reason goes with notify on or notify off</source>
        <translation>--reason 只能与 notify on 或 notify off 一起使用</translation>
    </message>
    <message>
        <source>unknown notify sub-command &quot;%1&quot; (expected show, on or off)</source>
        <translation>未知的 notify 子命令“%1”（应为 show、on 或 off）</translation>
    </message>
</context>
<context>
    <name>outbox::cli::Status</name>
    <message>
        <source>held back       %1 pending event(s) not due before %2 UTC (%3 ahead): available_at in the future, a delay or a local time (outboxctl doctor --check contract-violations)</source>
        <translation>暂缓            %1 个待发送事件在 %2 UTC 之前不会到期（还有 %3）：available_at 在未来，可能是有意的延迟，也可能写入了本地时间（outboxctl doctor --check contract-violations）</translation>
    </message>
    <message>
        <source>created ahead   %1 pending event(s) have created_at in the future, so the oldest pending age reads too low (outboxctl doctor --check contract-violations)</source>
        <translation>创建时间超前    %1 个待发送事件的 created_at 在未来，因此最早待发送时长显示偏小（outboxctl doctor --check contract-violations）</translation>
    </message>
    <message>
        <source>switched off %1 by %2: %3</source>
        <translation>%1 由 %2 关闭：%3</translation>
    </message>
    <message>
        <source>notifications   on (opt-in): every writer&apos;s commit waits for the notification lock (see outboxctl notify)</source>
        <translation>通知            开启（需主动选择）：每个写入方的提交都要等待通知锁（见 outboxctl notify）</translation>
    </message>
    <message>
        <source>notifications   off (the default): relays wake by doorbell or poll (see outboxctl notify)</source>
        <translation>通知            关闭（默认）：中继由门铃或轮询唤醒（见 outboxctl notify）</translation>
    </message>
</context>
<context>
    <name>outbox::config::Config</name>
    <message>
        <source>must be a lower-case letter or _ followed by up to 30 lower-case letters, digits or _</source>
        <translation>必须以小写字母或 _ 开头，后接最多 30 个小写字母、数字或 _</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须为 true 或 false</translation>
    </message>
    <message>
        <source>must be a number between %1 and %2</source>
        <translation>必须是 %1 到 %2 之间的数字</translation>
    </message>
    <message>
        <source>must be %1</source>
        <translation>必须为 %1</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>must be a duration such as 30s, 15m, 2h, 7d or 0</source>
        <translation>必须是时长，例如 30s、15m、2h、7d 或 0</translation>
    </message>
    <message>
        <source> (got &quot;%1&quot;)</source>
        <translation>（实际为“%1”）</translation>
    </message>
    <message>
        <source>%1:%2: unknown section [%3] (known: %4)</source>
        <translation>%1:%2：未知的节 [%3]（可用的节：%4）</translation>
    </message>
    <message>
        <source>invalid Kafka property name &quot;%1&quot;</source>
        <translation>无效的 Kafka 属性名“%1”</translation>
    </message>
    <message>
        <source>invalid token name &quot;%1&quot;</source>
        <translation>无效的令牌名“%1”</translation>
    </message>
    <message>
        <source>unknown key %1 in [%2]</source>
        <translation>[%2] 中的未知键 %1</translation>
    </message>
    <message>
        <source>[%1] %2 is set twice</source>
        <translation>[%1] %2 被设置了两次</translation>
    </message>
    <message>
        <source>%1 cannot be given on the command line</source>
        <translation>%1 不能在命令行中给出</translation>
    </message>
    <message>
        <source>invalid Kafka property &quot;%1&quot; (expected name=value)</source>
        <translation>无效的 Kafka 属性“%1”（应为 名称=值）</translation>
    </message>
    <message>
        <source>-X %1: secrets are not taken from the command line; use the environment or the [kafka] section of the configuration file</source>
        <translation>-X %1：机密不从命令行读取；请使用环境变量或配置文件的 [kafka] 节</translation>
    </message>
</context>
<context>
    <name>outbox::config::IniFile</name>
    <message>
        <source>unterminated quoted value</source>
        <translation>引号中的值没有结束</translation>
    </message>
    <message>
        <source>unexpected text after the quoted value</source>
        <translation>引号中的值后面有多余的文本</translation>
    </message>
    <message>
        <source>cannot read the configuration file %1</source>
        <translation>无法读取配置文件 %1</translation>
    </message>
    <message>
        <source>the configuration file %1 is larger than %2 bytes</source>
        <translation>配置文件 %1 超过 %2 字节</translation>
    </message>
    <message>
        <source>the file is not text</source>
        <translation>该文件不是文本文件</translation>
    </message>
    <message>
        <source>the line is not valid UTF-8</source>
        <translation>该行不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>malformed section header (expected [name] or [kind name])</source>
        <translation>节标题格式错误（应为 [名称] 或 [类型 名称]）</translation>
    </message>
    <message>
        <source>section [%1] appears twice</source>
        <translation>节 [%1] 出现了两次</translation>
    </message>
    <message>
        <source>expected [section] or key = value</source>
        <translation>应为 [节] 或 键 = 值</translation>
    </message>
    <message>
        <source>%1 stands before any [section]</source>
        <translation>%1 出现在任何 [节] 之前</translation>
    </message>
    <message>
        <source>[%1] %2 is set twice</source>
        <translation>[%1] %2 被设置了两次</translation>
    </message>
</context>
<context>
    <name>outbox::KafkaProperties</name>
    <message>
        <source>invalid Kafka property &quot;%1&quot; (expected name=value)</source>
        <translation>无效的 Kafka 属性“%1”（应为 名称=值）</translation>
    </message>
    <message>
        <source>enable.idempotence must stay true for the outbox relay</source>
        <translation>对 outbox 中继而言，enable.idempotence 必须保持为 true</translation>
    </message>
    <message>
        <source>acks must stay all for the outbox relay</source>
        <translation>对 outbox 中继而言，acks 必须保持为 all</translation>
    </message>
    <message>
        <source>%1 is not supported by the relay</source>
        <translation>中继不支持 %1</translation>
    </message>
</context>
<context>
    <name>outbox::AmqpBroker</name>
    <message>
        <source>a password does not belong on the command line (other users see it in the process list): give it in OUTBOX_BROKER_PASSWORD or [amqp] password_file</source>
        <translation>密码不应出现在命令行上（其他用户能在进程列表中看到它）：请通过 OUTBOX_BROKER_PASSWORD 或 [amqp] password_file 提供</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>no AMQP broker URL given</source>
        <translation>未给出 AMQP Broker URL</translation>
    </message>
    <message>
        <source>no AMQP broker URL given (amqp://user@host:5672/vhost)</source>
        <translation>未给出 AMQP Broker URL（amqp://user@host:5672/vhost）</translation>
    </message>
    <message>
        <source>the AMQP publish window must be between 1 and 65535</source>
        <translation>AMQP 发布窗口必须在 1 到 65535 之间</translation>
    </message>
    <message>
        <source>the lease (%1 ms) must exceed the AMQP confirm deadline (%2 ms)</source>
        <translation>租约（%1 毫秒）必须超过 AMQP 确认期限（%2 毫秒）</translation>
    </message>
    <message>
        <source>a consumer on RabbitMQ needs a queue</source>
        <translation>RabbitMQ 上的消费者需要一个队列</translation>
    </message>
</context>
</TS>

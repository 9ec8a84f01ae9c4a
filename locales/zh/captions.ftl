# 字幕：用课程的话讲述运行的每一步 (src/ui/captions.rs)。
# 协议标识符（消息类型、工具名、request_id、pending、approved、rejected、字段名）保持原样。

quote = “{ $text }”
list-sep = 、
list-and = { $init } 和 { $last }
who-lead = 领导
who-lead-start = 领导
whose-lead = 领导的
whose-lead-start = 领导的
whose-name = { $name }的

cap-said = { $field }：“{ $text }”。
cap-said-ended = { $field }：“{ $text }”
cap-no-text = （无文本）
cap-messages = { $count ->
    [0] 没有消息
   *[other] { $count } 条消息
}
cap-more = 另外 { $messages }
cap-msg-with-id = 来自{ $from }的 { $msg_type } { $id }
cap-msg = 来自{ $from }的一条 { $msg_type }

cap-nothing-title = 尚无内容
cap-nothing-text = 选择一个场景，或为领导输入提示词。运行的每一步都会在这里讲解。
cap-before-title = 第一个事件之前
cap-before-text = 本次运行共有 { $count } 个事件。按“下一步”逐步观看领导和队友。

cap-run-started-title = 运行开始
cap-run-started-text = 用户向领导输入提示词：{ $prompt }。领导启动它的智能体循环。
cap-run-finished-title = 运行结束
cap-run-finished-text = 团队安静下来：没有哪个智能体还有要做的回合。
cap-run-finished-quiet = 团队安静下来：没有人在工作。
cap-run-finished-working = 团队安静下来，但 { $names } 仍显示为工作中。
cap-run-finished-read = 没有哪个收件箱里还有未读消息。
cap-run-finished-inbox = { $whose }收件箱里有{ $messages }
cap-run-finished-unread = 仍未读：{ $inboxes }。
cap-run-finished-settled = 每个请求都已在 tracker 中有了最终状态。
cap-run-finished-pending = tracker 中仍有 { $count } 个请求是 pending。

cap-plan-mode = 它以计划模式工作：运行时对执行把关（先过审）——{ $name } 必须先让领导批准一个计划，才能修改工作区。
cap-restarts-title = { $name } 重启
cap-restarts-text = 领导再次以 { $role } 的身份启动 { $name }：它的循环重新开始运行（新的实例）。发给它上一次运行的请求，它再也无法响应。
cap-spawned-title = { $name } 已创建
cap-spawned-text = 领导以 { $role } 的身份创建 { $name }；{ $name } 开始工作，并拥有自己的收件箱。

cap-status-shutdown-title = { $name } 关机
cap-status-shutdown-text = { $name } 离开它的循环：状态 { $from } → shutdown。它的生命线结束（×）；此后发给 { $name } 的消息都不会再被读取。
cap-status-idle-title = { $name } 空闲
cap-status-idle-text = { $name } 这一轮已无事可做：{ $from } → idle。它等待收件箱里的消息来唤醒它。
cap-status-working-title = { $name } 工作中
cap-status-working-text = { $name } 又有工作了：{ $from } → working。

cap-inbox-title = 读取收件箱
cap-inbox-one = （{ $item }）
cap-inbox-many = （{ $items }）
cap-inbox-text = { $who_start }读取收件箱：{ $messages }{ $what }。收件箱又空了。
cap-inbox-text-lead = { $who_start }读取自己的收件箱：{ $messages }{ $what }。收件箱又空了。
cap-inbox-next = { $who_start }按 request_id 逐条处理。

cap-shutdown-requested-title = 请求关机
cap-shutdown-requested-text = { $who_start }请求 { $addressee } 关机。请求 { $id } 被创建，在 { $addressee } 响应之前一直是 pending：shutdown_requests[{ $id }] = {"{"}target: { $addressee }, status: pending{"}"}。
cap-plan-submitted-title = 提交计划
cap-plan-submitted-text = { $requester }提交一个计划等待审批：{ $plan }。在{ $reviewer }审阅之前，请求 { $id } 一直是 pending；在此之前{ $requester }不得执行该计划。

cap-moved = tracker 将其从 { $from } 变为 { $to }
cap-shutdown-approved-title = 关机已批准
cap-shutdown-approved-text = { $by_start }批准 { $id }：{ $moved }。{ $by_start }完成这一轮，然后离开它的循环。
cap-shutdown-rejected-title = 关机被拒绝
cap-shutdown-rejected-text = { $by_start }拒绝 { $id }：{ $moved }。{ $by_start }继续工作；领导可以用一个新请求再次询问。
cap-plan-approved-title = 计划已批准
cap-plan-approved-text = { $by_start }批准{ $whose }计划 { $id }：{ $moved }。闸门打开：{ $requester }现在可以执行该计划。
cap-plan-approved-text-anon = { $by_start }批准计划 { $id }：{ $moved }。队友现在可以继续。
cap-plan-rejected-title = 计划被拒绝
cap-plan-rejected-text = { $by_start }拒绝{ $whose }计划 { $id }：{ $moved }。{ $requester }不得执行它；可以修改后提交新计划。
cap-plan-rejected-text-anon = { $by_start }拒绝计划 { $id }：{ $moved }。队友不得执行它。
cap-stale-transition = 注意：{ $id } 是发给{ $whose }上一次运行的（在它重启之前）——这是一个过期的响应。

cap-model-called-title = 调用模型
cap-model-called-text = { $who_start }带着目前为止的对话调用它的模型，并等待回复（即它生命线上的激活条）。
cap-model-replied-title = 模型回复
cap-model-replied-text = { $whose_start }模型作出回复（{ $tokens } 个 token，{ $stop_reason }）：{ $next }。
cap-model-next-tools = 它请求调用工具，循环接下来会执行这些调用
cap-model-next-end = 它的这一轮结束
cap-model-says = 它说：{ $quote }。
cap-model-failed-title = 模型调用失败
cap-model-failed-text = { $whose_start }模型调用失败：{ $error }。{ $who_start }停止这一轮。

cap-tool-refused-title = 工具被拒绝
cap-tool-refused-text = 运行时拒绝了{ $whose } { $tool }：{ $output }。模型读到错误后可以再试。
cap-tool-returned-title = 工具返回
cap-tool-returned-text = { $whose_start } { $tool } 返回：{ $output }。

cap-fault-rule = 故障规则 { $rule }
cap-fault-rule-any = 一条故障规则
cap-fault-dropped-title = 故障：丢弃
cap-fault-dropped-text = { $by } 丢弃了{ $what }（它正发往{ $to }）：它永远到不了{ $whose_to }收件箱（×）。
cap-fault-dropped-response = tracker 的状态已经改变，但请求方永远收不到这个响应。
cap-fault-delayed-title = 故障：延迟
cap-fault-delayed-text = { $by } 把{ $what } 在总线上扣留 { $ms } 毫秒；它稍后才到达{ $whose_to }收件箱。
cap-fault-duplicated-title = 故障：重复
cap-fault-duplicated-text = { $by } 复制了{ $what }：{ $whose_to }收件箱会收到两次。凭 request_id 可以看出，这个副本并没有带来新的响应。
cap-fault-reordered-title = 故障：乱序
cap-fault-reordered-text = { $by } 扣住{ $what }，直到下一条发给{ $to }的消息送达，所以它乱序到达。request_id 仍能把它与对应的请求匹配起来。
cap-released-title = 扣留的消息被释放
cap-released-text = { $what_start } 终于到达{ $whose_to }收件箱（自事件 #{ $held } 起被扣留）。无论顺序如何，它都凭 request_id 匹配。
cap-released-unknown = 被事件 #{ $held } 扣留的消息到达收件人的收件箱。

cap-sent-copy = 这是重复故障产生的副本。
cap-sent-waits = 它在{ $whose_to }收件箱里等待，直到{ $to }读取它。
cap-stale-answer = 它响应的是 { $id }，而该请求是发给{ $whose }上一次运行的：这是跨越重启的过期响应。
cap-sent-message-title = 消息已发送
cap-sent-message-text = { $from_start }给{ $to }发了一条消息：{ $content }。
cap-sent-broadcast-title = 广播
cap-sent-broadcast-text = { $from_start }向{ $to }广播：{ $content }。
cap-sent-shutdown-request-title = 已发送 shutdown_request
cap-sent-shutdown-request-text = { $from_start }把带有 request_id { $id } 的 shutdown_request 发给{ $to }：{ $content }。
cap-sent-shutdown-response-title = 已发送 shutdown_response
cap-sent-shutdown-response-text = { $from_start }用 shutdown_response（{ $approve }）响应 { $id }，通过 request_id 关联。
cap-sent-plan-request-title = 已发送 plan_approval_request
cap-sent-plan-request-text = { $from_start }把计划作为带 request_id { $id } 的 plan_approval_request 发给{ $to }。
cap-sent-plan-response-title = 已发送 plan_approval_response
cap-sent-plan-response-text = { $from_start }用 plan_approval_response（{ $approve }）响应计划 { $id }，通过 request_id 关联。

cap-tool-title = 工具：{ $tool }
cap-tool-spawn = { $who_start }调用 spawn_teammate，以 { $role } 的身份启动 { $name }。
cap-tool-shutdown-request = { $who_start }为 { $teammate } 调用 shutdown_request：处理程序会创建一个 request_id 并发送请求。
cap-tool-shutdown-approve = { $who_start }调用 shutdown_response 批准 { $id }。
cap-tool-shutdown-reject = { $who_start }调用 shutdown_response 拒绝 { $id }。
cap-tool-shutdown-about = { $who_start }就 { $id } 调用 shutdown_response。
cap-tool-plan-approve = { $who_start }调用 plan_approval 批准计划 { $id }（审阅模式，带 request_id）。
cap-tool-plan-reject = { $who_start }调用 plan_approval 拒绝计划 { $id }（审阅模式，带 request_id）。
cap-tool-plan-submit = { $who_start }调用 plan_approval 提交计划（提交模式，还没有 request_id）：{ $plan }。
cap-tool-read-inbox = { $who_start }调用 read_inbox，读取等待它的消息。
cap-tool-send = { $who_start }调用 send_message，给{ $to }发消息。
cap-tool-broadcast = { $who_start }调用 broadcast，给每个队友发消息。
cap-tool-list = { $who_start }调用 list_teammates，查看 config.json 中每个队友的状态。
cap-tool-file = { $who_start }对 { $path } 调用 { $tool }。
cap-tool-other = { $who_start }调用工具 { $tool }。

# 一次模型调用的花费。计数单位为 token；"≈" 表示脚本模型的估算。
cost-tokens = { $tokens } 个 token
cost-tokens-priced = { $tokens } 个 token · { $money }
cost-tokens-estimate = ≈{ $tokens } 个 token（估算）
cost-in-out = 输入 { $input }，输出 { $output }
cost-cache = 缓存读取 { $read }、写入 { $write }
cost-call = 用量：{ $usage }。
cost-call-priced = 用量：{ $usage }（{ $money }）。
cost-call-estimate = 用量 ≈ { $usage }（估算）。
cost-protocol-share = 其中 { $tokens } 用于协议握手
cap-budget-reached-title = 已达预算
cap-budget-reached-text = { $whose_start }下一次模型调用最多可能用掉 { $expected }（它的提示，加上回复的 max_tokens），将超出本次运行的预算 { $limit }（目前已用 { $spent }）。运行在此停止，与“停止”相同：这次调用不会发出，没有智能体继续。
cap-budget-unpriced-text = 本次运行的预算是 { $limit }，但价格表中没有这个模型的价格，无法得知调用的费用。{ $whose_start }模型调用不会发出，运行在此停止。
cost-budget-banner = 预算 { $limit } 在事件 #{ $seq } 处停止了运行，在 { $who } 的下一次模型调用之前；那次调用最多可能用掉 { $expected }（已用 { $spent }）。
cost-budget-banner-unpriced = 预算 { $limit } 在事件 #{ $seq } 处停止了运行，在 { $who } 的模型调用之前：价格表中没有这个模型的价格。
cap-file-request-text = { $requester_start } 用 { $protocol } 协议向 { $addressee } 发出请求：请求 { $id } 处于 { $status }。
cap-file-answered-text = { $by_start } 答复 { $protocol } 请求 { $id }：{ $moved }。
cap-file-expired-text = { $protocol } 请求 { $id } 在截止时间前无人答复：{ $moved }（已过期）。

# 探索面板、发现卡片、分叉、真实故障图集与保护规则
# (src/ui/explore_*.rs, src/ui/fork_view.rs)。
# 性质名 (no_answer_lost…)、规则名 (incarnation_binding…)、
# always/sometimes/eventually、故障种类、智能体名、请求 ID 与 issue 引用一律不翻译。

## 面板
explore-title = 探索每一次运行
explore-intro = 一个模型检查器：它尝试智能体行动的每一种顺序、协议允许它们做出的每一个决定，以及界限内的每一个故障，并评判每一次运行。每个被打破的性质都附带打破它的运行：故障最少，其中最短。
explore-scenario = 场景
explore-scenario-label = 要探索的场景
explore-faults-per-run = 每次运行的故障数
explore-fault-kinds = 故障种类
explore-depth = 深度界限
explore-decisions = 脚本外决定
explore-decisions-label = 每次运行的脚本外决定数
explore-withhold = 允许扣住响应
explore-search = 搜索
explore-search-label = 搜索策略
explore-bfs = 广度优先（最短示例）
explore-dfs = 深度优先
explore-simulate = 随机运行（2,000 次）
explore-workers = 工作线程
explore-workers-all-cores = { $count } 个工作线程会占用本设备的全部核心：搜索期间页面的响应可能变慢。
explore-start = 开始
explore-stop = 停止
explore-fork-on-screen = 分叉屏幕上的运行
explore-faults-not-whole = 故障数必须是整数
explore-depth-not-whole = 深度界限必须是整数
explore-decisions-not-whole = 决定数界限必须是整数

## 计数器与状态
explore-state-running = 正在搜索……{ $count } 个工作线程中已完成 { $done } 个
explore-state-shrinking = 正在把示例缩减到最少的故障：重新搜索（上限：{ $faults }）……{ $count } 个工作线程中已完成 { $done } 个
explore-state-done = 完成：界限内的每一次运行都已探索。
explore-state-done-cut = 完成，但深度或状态界限截断了搜索：“未知”表示在已探索的部分中没有示例。
explore-state-stopped = 已停止：工作线程已结束；没有判定。
explore-state-failed = 搜索失败：{ $error }
explore-progress = 搜索进度
explore-counter-states = 状态
explore-counter-rate = 状态/秒
explore-counter-distinct = 不同状态
explore-counter-depth = 深度
explore-counter-frontier = 前沿
explore-counter-seconds = 秒

## 判定
explore-outcomes = { $runs } 次运行以 { $count } 种不同方式结束。
explore-verdicts = 性质判定
verdict-holds = 成立
verdict-fails = 不成立
verdict-unknown = 未知
explore-counterexample = 反例
explore-witness = 见证
explore-faults = { $count ->
    [0] 无故障
   *[other] { $count } 个故障
}
explore-open-example = 打开{ $kind }
explore-open-example-label = 打开 { $property } 的{ $kind }（{ $choices } 个选择，{ $faults }）
explore-which-properties = 列出哪些性质

## 发现卡片
explore-broken-title = 被打破：{ $property }
explore-shown-title = 已展示：sometimes { $property }
explore-finding-text = 发生了什么：{ $detail }。该性质：{ $statement }找到的最短运行包含 { $choices } 个选择和{ $faults }。
explore-reported-as = 已在一个生产环境的智能体团队工具中被报告为 { $issues }。
explore-not-found-on-rebuilt = 运行已重建，但此版本没有在其中发现该性质被打破
explore-marked = 发生处的事件 #{ $seq } 就在光标处。
explore-path-summary = 此运行的 { $count } 个选择（可分叉其中任意一个）
explore-link = 指向此运行的链接
explore-copy-link = 复制链接
explore-on-screen-title = 此运行作为探索器的路径：{ $count } 个选择
explore-on-screen-text = 下面每一步都是这次运行做出的一个选择：谁下一个行动，或模型回复了什么。分叉其中任意一个，走另一个分支，并排查看两次运行。

## 运行中的选择
choice-turn = { $agent } 下一个行动
choice-turn-fault = { $agent } 下一个行动，它的消息遭遇 { $fault }
choice-reply = { $agent } 的模型：{ $label }
choice-expire = 请求 { $request } 未获应答而过期（期限已过）

## 横幅中的错误
explore-not-started = { $error }。搜索没有开始
explore-err-scenario = 没有可探索的场景 '{ $id }'
explore-err-workers = { $count } 个工作线程：请在 1 到 { $max } 之间选择
explore-err-faults = 每次运行 { $count } 个故障：请在 0 到 { $max } 之间选择
explore-err-no-fault-kind = 允许故障，但没有勾选任何种类：请勾选 drop、duplicate、delay 或 reorder，或把故障数设为 0
explore-err-zero = { $bound }必须至少为 1
explore-err-too-large = { $bound }为 { $count }：请选择不超过 { $max }
explore-bound-depth = 深度界限
explore-bound-states = 状态界限
explore-bound-decisions = 脚本外决定界限
explore-bound-runs = 随机运行次数
explore-err-bad-message = 一个工作线程发来了无法读取的消息：{ $error }
explore-link-not-rebuilt = 无法重建此链接的运行：{ $error }。屏幕上的运行保持不变
explore-link-bad-settings = 链接中的探索器设置无效：{ $error }
explore-fork-no-snapshot = 只有在脚本模型上运行的场景才能分叉；这次运行是导入的，或没有记录它是如何开始的
explore-fork-not-reproducible = 只有在脚本模型上未经改动的场景运行才能分叉（没有其他模型，没有手动操作）
explore-fork-file-run = 只能分叉协议文件团队在脚本模型上未经改动的运行（团队自己的提示，没有手动操作，没有其他模型）：在协议视图中点击“运行团队”，再分叉那次运行
explore-fork-fault-rules = 带有故障规则的运行不能分叉：探索器自己放置故障（请在“探索”中设置每次运行的故障数）
explore-fork-failed = 无法推演此分叉：{ $error }

## 分叉
fork-button = 分叉…
fork-at-label = 在第 { $n } 个选择处分叉：{ $choice }
fork-none-open = 这里没有其他可选的选择。
fork-others-label = 第 { $n } 步的其他选择
fork-instead = 改为：{ $choice }
fork-title = 在第 { $n } 个选择处分叉
fork-summary = 原始：“{ $original }”。分支：“{ $branch }”。{ $summary }
fork-share = 两者共有 { $count } 个事件，然后分开。
fork-same = 两次运行相同：这个选择没有改变任何被记录的内容。
fork-table-caption = 原始运行与分支，逐个事件，按请求对齐
fork-original = 原始
fork-branch = 分支
fork-no-counterpart = 无对应事件
fork-mark-header = 差异
fork-first-difference = 第一处差异 ▶
fork-open-original = 在图上打开原始运行
fork-open-branch = 在图上打开分支
fork-side-original = 原始运行
fork-side-branch = 分支
fork-side-title = 第 { $n } 个选择处分叉的{ $side }
fork-side-text = 在第 { $n } 个选择处，{ $side }选择了“{ $choice }”。光标位于两次运行第一次出现差异的事件。

## 真实故障图集
gallery-title = 真实故障案例集
gallery-intro = 在 Claude Code 的智能体团队中报告过的故障，在这里关闭防止它们的规则后重现。“重现”会找到最短的运行；然后启用规则，看看它会怎样处理。
gallery-breaks = 打破：
gallery-reproduce = 重现
gallery-rule-on = 启用规则：
gallery-rule-summary = 防止它的规则
gallery-reproduced-title = 已重现：{ $title }
gallery-prevented-title = 已防止：{ $title }
gallery-prevented-text = 启用规则 { $rule } 后，同样的选择不再打破 { $property }。{ $description }接下来“探索”面板会在启用该规则的情况下搜索每一次运行。
gallery-not-reproduced = 搜索没有在其界限内重现“{ $title }”
gallery-rule-on-failed = 无法在启用规则的情况下播放此运行：{ $error }

## 图集条目与保护规则
gallery-stale-shutdown-after-respawn-title = 一个过期的关机请求让重新生成的队友关机
gallery-stale-shutdown-after-respawn-caption = 报告内容：发给某个队友的关机请求在该队友被重新生成时仍未得到响应，新的队友读到了旧请求并关机。这个请求是发给一个已经不存在的运行的，却由另一个运行作出响应：这打破了“响应不会跨越重启”。这里 alice 扣住她的响应，领导再次生成她，重启后的 alice 找到旧请求并批准了它。
gallery-acting-after-approving-shutdown-title = 队友在批准关机后继续行动
gallery-acting-after-approving-shutdown-caption = 报告内容：队友批准了关机请求，却没有终止；它们仍然存活并继续轮流行动。批准关机就是承诺停止：这打破了“批准关机的队友不再调用模型”（最终也打破了“每个批准的关机都会到达关机”）。这里 alice 批准了领导的请求，却没有任何东西让她离开循环，于是她再次调用了模型。
gallery-lead-answers-its-own-request-title = 领导批准了自己发出的关机请求
gallery-lead-answers-its-own-request-caption = 报告内容：一个关机请求最终由领导而不是它所指向的队友作出响应，领导批准了自己的终止。只有请求所指向的智能体才能响应它：这打破了“只有收件人响应”。这里领导请 alice 关机，然后不等 alice，自己响应了这个请求。
gallery-shutdown-never-answered-title = 关机请求从未得到响应
gallery-shutdown-never-answered-caption = 报告内容：一个队友完成工作后进入空闲；领导的关机请求送到了它那里，但它从未响应，团队在请求仍为 pending 的情况下一直空闲（有时如此，并非总是）。这打破了“请求处于 pending 时，没有运行会陷入沉寂”。这里 alice 在领导的请求到达之前就完成工作并进入空闲；没有任何东西唤醒她去读取请求，于是所有人都在等待中沉寂。
rule-incarnation_binding-description = 每个请求在创建时记录其收件人当时的实例（incarnation），团队会把来自更晚实例的响应视为针对过期请求而拒绝（src/protocol/team.rs 中的 TeamState::check_answer）。
rule-addressee_only-description = tracker（跟踪表）只接受请求所指向的智能体的响应，拒绝其他任何人的响应（src/protocol/tracker.rs 中的 Tracker::check_answer）。
rule-exit_after_approval-description = 批准了关机（或由人代为手动批准）的队友会完成当前轮次，然后离开它的循环，而不是再次调用模型（src/runtime/loops.rs 中的 teammate_after 和 teammate_leaves）。
rule-wake_on_message-description = 发给空闲队友的消息会唤醒它，它在下一次调用模型之前清空收件箱，因此发给空闲队友的请求会被读取并得到响应（src/runtime/world.rs 中的 World::wake）。

## 每个性质说了什么
property-no_answer_to_unknown_request = 没有响应引用一个无人创建的 request_id。
property-no_second_answer = 没有请求被响应两次：一旦批准或拒绝，就保持不变。
property-only_the_addressee_answers = 只有请求所指向的智能体才会响应它。
property-no_answer_across_restart = 响应不会跨越重启：发给队友早先一次运行的请求，绝不会由它新的运行来响应。
property-no_request_across_restart = 请求不会跨越重启：重新启动的队友绝不会读到发给它上一个实例的请求（incarnation_binding 会拒绝它的响应，但这个请求本就不该送到它那里）。
property-no_message_to_exited_teammate = 没有人给已经关机的队友发消息。
property-no_answer_lost = tracker 记录下的响应不会在送往请求方的途中丢失。
property-no_duplicate_delivered = 同一条回复不会被读取两次。
property-no_action_after_shutdown_approved = 批准了关机的队友不再发起新的模型调用：它完成当前轮次，然后离开循环。
property-no_work_before_plan_approval = 处于计划模式的队友在计划获批之前不修改任何文件。
property-every_request_has_a_responder = 每个请求都发给了拥有响应它所需工具的人。
property-some_request_approved = 存在一次运行，其中有请求被批准。
property-some_request_rejected = 存在一次运行，其中有请求被拒绝。
property-requests_settle = 每个请求都会有结果：最终被批准或被拒绝，绝不停留在 pending。
property-approved_shutdowns_exit = 每个批准了关机的队友都会到达关机。
property-no_quiet_while_pending = 请求处于 pending 时，没有运行会陷入沉寂（所有智能体都空闲）。
property-runs_end = 每次运行都会结束：不存在运行尚未结束却什么都无法推进的状态。
property-no_gated_tool_while_closed = 闸门对某个成员关闭时，受它控制的工具不会运行：在某个协议打开闸门之前，运行时拒绝执行。
property-no_answer_after_expiry = 没有请求在期限过后才被响应：到期的请求被拒绝，不再由任何人响应。

## Scenarios only the explorer lists (their titles, looked up as scenario-<id>-title like the others)
scenario-without-protocols-title = 先无协议，再有协议
scenario-twins-title = 双胞胎：两个程序员，都已关机
scenario-respawn-title = 重新生成：alice 被要求关机，然后再次被生成
explore-err-file = 无法探索协议文件的团队：{ $error }
explore-file-team = { $name }（你的文件）
explore-file-broken-title = 文件的属性 { $property } 在此运行中被打破
explore-file-shown-title = 文件的属性 { $property } 在此运行中出现
explore-file-finding-text = { $detail }（{ $faults }，{ $count } 个选择。）
explore-file-verdicts = 文件自己的属性
explore-capped-answers = 协议 '{ $name }' 有 { $count } 种响应（批准或拒绝 × 其响应的每个枚举字段）：探索器对每个响应除脚本给出的之外最多尝试 { $cap } 种，改动最少的优先，所以在此文件下的搜索只覆盖其中一部分。
gallery-files-title = 回应这些故障的协议文件
gallery-files-intro = 以文件写成的协议（可在“协议”视图中打开）：一次点击即可在图上运行其团队并探索它。
gallery-file-breaks = 探索打破：
gallery-file-holds = 探索表明它成立：
gallery-file-show = 运行并探索
gallery-file-show-label = 运行并探索：{ $title }
gallery-file-deadline-retry-title = 丢失的关闭答复让请求永远处于待定
gallery-file-deadline-retry-caption = 报告：一个关闭请求始终没有得到答复，团队闲置，请求一直待定。在课程的协议中，丢失的答复正会如此。此文件为请求设定截止时间和一次重试：它的团队会丢弃每个答复，而探索（每次运行再多丢一条消息）表明 "every_shutdown_settles" 在每次运行中都成立：无人答复时，请求过期并被再次发出。
gallery-file-permission-no-responder-title = 无人能答复的权限请求
gallery-file-permission-no-responder-caption = 报告：一个队友在编辑前必须请求许可，但没有任何东西能批准它，请求永远待定。加载器会拒绝这样的协议（responder_required）；此文件关闭了该规则，探索找到了 carol 发出请求后所有人在请求待定时都安静下来的运行：它打破了“请求待定时没有运行会安静下来”。
gallery-file-task-claim-title = 两个队友拥有同一个任务
gallery-file-task-claim-caption = 许多团队都报告过：两个智能体都认为某个任务属于自己，做了同样的工作。这里 ann 和 ben 向领导认领任务；认领协议中没有任何东西拒绝第二次批准，所以属性 "one_owner_per_task" 取决于领导。探索让领导偏离脚本一次，找到了它也批准 ben 认领 parser 的运行。

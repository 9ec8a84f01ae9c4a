# 序列图、图例和移动消息中绘制的文字（src/ui/geometry.rs、src/ui/motion_draw.rs），
# 页面和 SVG 导出共用。智能体名称、消息类型、请求 ID 和状态
# （pending、approved、rejected、working、idle、shutdown）不翻译。

diagram-run-finished = ■ 运行结束
diagram-budget-reached = ■ 已达预算：{ $limit }
diagram-head-tokens = { $tokens } token
diagram-spawn = 创建 { $name }
diagram-shut-down = { $name } 已关机
# The word under an earlier head of a teammate spawned again: that run of it was replaced by a new one.
diagram-replaced = 已被替换
diagram-dropped = 已丢弃
diagram-fault-dropped = （已丢弃）
diagram-fault-duplicate = （副本）
diagram-fault-delayed = （被延迟）
diagram-fault-reordered = （被重排）
diagram-tool-running = 运行中…
diagram-violations = 违规：{ $kinds }
diagram-inbox = { $name } 的收件箱：{ $count } 条等待中
diagram-held = 被扣留（{ $hold }）
diagram-held-label = { $from } → { $to }：{ $msg_type }，被扣留（{ $hold }）
diagram-hold-delayed = 延迟
diagram-hold-reordered = 重排

## 图例
legend-read = 实线：已读；颜色 = 它的 request_id
legend-waiting = 点线：已发送，仍在收件箱中等待
legend-plain = 虚线：普通消息或广播
legend-dropped = 末端 ×：被故障丢弃，永远不会到达
legend-fault-word = 下方文字：被延迟、重排或复制
legend-pending = 请求 pending：等待回答（FSM）
legend-tool = 工具调用（红色：被拒绝；虚线：运行中）
legend-model = 生命线上的条：正在等待模型
legend-shut-down = 生命线上的 ×：队友已关机
legend-violation = 协议违规（悬停查看详情）
legend-in-flight = 传输中的消息，沿箭头移动
legend-inbox = 在收件箱中等待（数量），直到被读取
legend-held = 被故障扣留在途中，直到放行
legend-summary = 图例：彩色实线箭头，已被接收方读取的请求或响应，颜色对应它的 request_id；点线箭头，仍在收件箱中等待的消息；虚线箭头，普通消息或广播；以 × 结尾的箭头，被故障丢弃；箭头下方的（被延迟）、（被重排）或（副本），受到故障影响；徽章，每个请求的状态 pending、approved 或 rejected；黄色方框，工具调用；生命线上的条，智能体正在等待模型；生命线上的 ×，队友已关机；⚠，协议违规；信封，传输中的消息；生命线上带数字的一叠信封，在其收件箱中等待的消息；停在点线上的信封，被故障扣留直到放行的消息。

## SVG 导出
svg-label = { $title }：序列图，{ $agents } 个智能体、{ $messages } 条消息、{ $requests } 个请求

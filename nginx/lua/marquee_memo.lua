-- A function of a request header or argument's raw value, remembered per value: clients send a
-- handful of distinct values (languages, Accept-Encoding), and working one out again costs a hot
-- answer microseconds (docs/benchmarks.md). The table starts again past LIMIT values, so made-up
-- ones cannot grow it. `compute` must not return nil (false stands for "none").
local LIMIT = 1000

return function(compute)
    local known, count = {}, 0
    return function(value)
        local found = known[value]
        if found == nil then
            found = compute(value)
            if count >= LIMIT then known, count = {}, 0 end
            known[value], count = found, count + 1
        end
        return found
    end
end
